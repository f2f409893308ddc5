import _KitSupport

/// Async commands that are running, by id, so they can be cancelled.
final class InFlightCommands: Sendable {
    struct Entry {
        var ticket: UInt64
        var cancel: @Sendable () -> Void
    }

    let entries = Locked([String: [Entry]]())

    /// Registers a running command; when `cancelsPrevious`, first cancels the others with `id`.
    func register(id: String, ticket: UInt64, cancelsPrevious: Bool, cancel: @escaping @Sendable () -> Void) {
        let previous = entries.withLock { entries -> [Entry] in
            let previous = cancelsPrevious ? entries[id, default: []] : []
            if cancelsPrevious { entries[id] = [] }
            entries[id, default: []].append(Entry(ticket: ticket, cancel: cancel))
            return previous
        }
        for entry in previous { entry.cancel() }
    }

    func unregister(id: String, ticket: UInt64) {
        entries.withLock { entries in
            entries[id]?.removeAll { $0.ticket == ticket }
            if entries[id]?.isEmpty == true { entries[id] = nil }
        }
    }

    /// Cancels every running command with `id`; returns how many there were.
    @discardableResult
    func cancel(id: String) -> Int {
        let cancelled = entries.withLock { $0.removeValue(forKey: id) ?? [] }
        for entry in cancelled { entry.cancel() }
        return cancelled.count
    }

    /// The ids of running commands.
    var ids: Set<String> {
        entries.withLock { Set($0.keys) }
    }
}
