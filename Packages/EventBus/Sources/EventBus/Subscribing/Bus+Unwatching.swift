extension Bus {
    /// Cancels every subscription to events named `name` — or, with a sender, only those that
    /// watch `name` from that sender.
    public func unwatch(_ name: String, from sender: AnyObject? = nil) {
        core.removeAll { core in
            guard let channel = core.names[name] else { return [] }
            return Self.take(from: channel, sender: sender)
        }
    }

    /// Cancels every subscription to events of `type` — or, with a sender, only those that
    /// watch `type` from that sender.
    public func unwatch<E: Event>(_ type: E.Type, from sender: AnyObject? = nil) {
        core.removeAll { core in
            guard let channel = core.types[ObjectIdentifier(E.self)] else { return [] }
            return Self.take(from: channel, sender: sender)
        }
    }

    /// Cancels every subscription that filters on `sender`: by type, by name, or for all of
    /// its events.
    public func unwatch(from sender: AnyObject) {
        let key = ObjectIdentifier(sender)
        core.removeAll { core in
            var taken: [Subscriber] = []
            for channel in Array(core.types.values) + Array(core.names.values) {
                taken += channel.bySender.removeValue(forKey: key)?.subscribers ?? []
            }
            taken += core.senders.removeValue(forKey: key)?.subscribers ?? []
            return taken
        }
    }

    /// Cancels every subscription on this bus. The bus stays open.
    public func unwatchAll() {
        core.removeAll { $0.takeEverything() }
    }

    private static func take(from channel: Channel, sender: AnyObject?) -> [Subscriber] {
        guard let sender else {
            var taken = Array(channel.everyone.removeAll())
            for bucket in channel.bySender.values { taken += bucket.subscribers }
            channel.bySender = [:]
            return taken
        }
        return Array(channel.bySender.removeValue(forKey: ObjectIdentifier(sender))?.subscribers ?? [])
    }
}
