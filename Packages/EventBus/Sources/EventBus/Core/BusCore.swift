import _KitSupport

/// The shared state of one bus, guarded by one lock: channels per event type and per event
/// name, sender-only subscriptions, recorders, and the id counter that defines registration
/// order. `Bus` is the public face; tokens keep the core (not the bus) alive so that they can
/// cancel after the bus is gone.
@usableFromInline
final class BusCore: @unchecked Sendable {
    let lock = FastLock()
    /// Where this bus forwards its events (scoped child buses).
    let parent: BusCore?
    /// ``deliveryThreadKey``, copied: the global costs a `swift_once` check per read, and the
    /// trigger, watch and release paths each read it.
    let threadKey = deliveryThreadKey

    // Everything below is guarded by `lock` (so Swift's dynamic exclusivity checks, which
    // cost more than the lock on the hot path, are turned off for it).
    @exclusivity(unchecked) var types: [ObjectIdentifier: Channel] = [:]
    @exclusivity(unchecked) var names: [String: Channel] = [:]
    @exclusivity(unchecked) var senders: [ObjectIdentifier: Bucket] = [:]
    @exclusivity(unchecked) var taps: [UInt64: @Sendable (RecordedTrigger) -> Void] = [:]
    @exclusivity(unchecked) var nextID: UInt64 = 0
    @exclusivity(unchecked) var isClosed = false
    /// The last type channel looked up: bursts of one event type skip the hash. Type channels
    /// are never removed, so the cache cannot go stale.
    @exclusivity(unchecked) private var cachedKey: ObjectIdentifier?
    /// Unretained: `types` keeps every type channel alive for as long as the core, so using the
    /// cached one costs no retain and release.
    @exclusivity(unchecked) private var cachedChannel: Unmanaged<Channel>?
    @exclusivity(unchecked) private var senderWatches = 0
    @exclusivity(unchecked) private var sweepThreshold = 256
    /// One word, guarded by `lock`, through which a reusable subscriber's bucket reference is
    /// handed over without a retain or a release (`Bucket.removeNewestKeepingReference`,
    /// `Bucket.appendHandingOver`). It never holds a reference of its own: what is moved in is
    /// left there, uncounted, and what is read out is a reference the caller carries.
    let scratch = UnsafeMutablePointer<Subscriber>.allocate(capacity: 1)

    init(parent: BusCore?) {
        self.parent = parent
    }

    deinit {
        scratch.deallocate()
    }

    /// Takes the next id; the caller holds the lock.
    func takeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// The channel of an event type, created on first use; the caller holds the lock.
    @inline(__always)
    func channel(forType key: ObjectIdentifier) -> Channel {
        if key == cachedKey, let cachedChannel { return cachedChannel.takeUnretainedValue() }
        return cacheChannel(forType: key).takeUnretainedValue()
    }

    /// Runs `body` on the channel of an event type without retaining it; the caller holds the lock.
    @inline(__always)
    func withChannel<Result>(forType key: ObjectIdentifier, _ body: (Channel) -> Result) -> Result {
        let channel = key == cachedKey ? cachedChannel ?? cacheChannel(forType: key) : cacheChannel(forType: key)
        return channel._withUnsafeGuaranteedRef(body)
    }

    /// Looks up (or makes) the channel of an event type and caches it; the caller holds the lock.
    private func cacheChannel(forType key: ObjectIdentifier) -> Unmanaged<Channel> {
        let channel: Channel
        if let existing = types[key] {
            channel = existing
        } else {
            channel = Channel()
            types[key] = channel
        }
        cachedKey = key
        let reference = Unmanaged.passUnretained(channel)
        cachedChannel = reference
        return reference
    }

    /// The channel of an event name, created on first use; the caller holds the lock.
    func channel(forName name: String) -> Channel {
        if let channel = names[name] { return channel }
        let channel = Channel()
        names[name] = channel
        return channel
    }

    // MARK: Registering

    /// Stores `subscriber`, giving it the next id, and returns the event to replay, if one was
    /// asked for. A queued subscriber gets its replay here, under the lock, so that it precedes
    /// anything triggered afterwards. On a closed bus the subscriber is cancelled at once.
    ///
    /// `bringsReference`: the caller also hands over a second strong reference to `subscriber`
    /// (a reused spare keeps its old bucket's, see `Channel.cancelInEveryone`), which the
    /// bucket takes instead of retaining it, or which is released if it is not stored that way.
    func register(
        _ subscriber: Subscriber, sender: AnyObject?, replayLast: Bool, bringsReference: Bool
    ) -> Replay? {
        lock.lock()
        subscriber.id = takeID()
        if !isClosed, sender == nil, !replayLast, case .type(let key) = subscriber.topic {
            // The common case, inline: a subscription to a type from any sender.
            withChannel(forType: key) { channel in
                if bringsReference {
                    // The reference handed over, taken as is: no retain.
                    channel.everyone.appendHandingOver(subscriber, scratch: scratch)
                } else {
                    channel.everyone.append(subscriber)
                }
                subscriber.handOutsWhenStored = channel.handOuts
            }
            lock.unlock()
            return nil
        }
        // Not stored with the reference handed over: the paths below retain what they store.
        // The caller's own reference keeps the subscriber alive, so this release frees nothing.
        defer { if bringsReference { Unmanaged.passUnretained(subscriber).release() } }
        if isClosed {
            _ = subscriber.raiseFlag()
            lock.unlock()
            subscriber.finishCancelling()
            return nil
        }
        var channel: Channel?
        switch subscriber.topic {
        case .type(let key): channel = self.channel(forType: key)
        case .name(let name): channel = self.channel(forName: name)
        case .anyEvent: channel = nil
        }
        if let sender, let key = subscriber.senderKey {
            if let channel {
                channel.bySender[key, default: Bucket()].adopt(sender)
                channel.bySender[key, default: Bucket()].append(subscriber)
            } else {
                senders[key, default: Bucket()].adopt(sender)
                senders[key, default: Bucket()].append(subscriber)
            }
            noteSenderWatch()
        } else if let channel {
            channel.everyone.append(subscriber)
            subscriber.handOutsWhenStored = channel.handOuts
        }
        var replay: Replay?
        if replayLast, let channel, let last = channel.replayable(for: sender) {
            if subscriber.isQueued {
                subscriber.invoke(with: last.event)
            } else {
                replay = Replay(last.event)
            }
        }
        lock.unlock()
        return replay
    }

    /// Senders are held weakly, so a sender that goes away leaves inert subscribers behind;
    /// sweep them now and then, amortised over sender watches. The caller holds the lock.
    private func noteSenderWatch() {
        senderWatches += 1
        guard senderWatches >= sweepThreshold else { return }
        senderWatches = 0
        var remaining = 0
        for channel in Array(types.values) + Array(names.values) {
            for key in Array(channel.bySender.keys) {
                channel.bySender[key]?.compact()
                if channel.bySender[key]?.isEmpty ?? true { channel.bySender[key] = nil } else { remaining += 1 }
            }
        }
        for key in Array(senders.keys) {
            senders[key]?.compact()
            if senders[key]?.isEmpty ?? true { senders[key] = nil } else { remaining += 1 }
        }
        sweepThreshold = max(256, remaining * 2)
    }

    // MARK: Cancelling

    /// Cancels one subscriber: raise its flag (so no snapshot calls it again) and let its bucket
    /// drop it, under the lock, which makes the first cancel the only one; then run its hook.
    /// A subscriber of a type from any sender may also be marked for reuse
    /// (`Channel.cancelInEveryone`).
    func cancel(_ subscriber: Subscriber) {
        lock.lock()
        if case .type(let key) = subscriber.topic, subscriber.senderKey == nil {
            // The common case, inline: a subscription to a type from any sender.
            let wasLive = !subscriber.isCancelled
            if wasLive { withChannel(forType: key) { $0.cancelInEveryone(subscriber, sink: scratch) } }
            lock.unlock()
            if wasLive { subscriber.finishCancelling() }
            return
        }
        guard subscriber.raiseFlag() else {
            lock.unlock()
            return
        }
        switch subscriber.topic {
        case .type(let key):
            withChannel(forType: key) { noteCancelled(subscriber, in: $0) }
        case .name(let name):
            if let channel = names[name] {
                noteCancelled(subscriber, in: channel)
                if channel.isEmpty { names[name] = nil }
            }
        case .anyEvent:
            if let key = subscriber.senderKey {
                senders[key]?.noteCancelled(subscriber)
                if senders[key]?.isEmpty == true { senders[key] = nil }
            }
        }
        lock.unlock()
        subscriber.finishCancelling()
    }

    private func noteCancelled(_ subscriber: Subscriber, in channel: Channel) {
        if let key = subscriber.senderKey {
            channel.bySender[key]?.noteCancelled(subscriber)
            if channel.bySender[key]?.isEmpty == true { channel.bySender[key] = nil }
        } else {
            channel.everyone.noteCancelled(subscriber)
        }
    }

    /// Removes subscribers chosen by `collect` (which runs under the lock and empties buckets),
    /// raising their flags before the lock is released and running their hooks after.
    func removeAll(_ collect: (BusCore) -> [Subscriber]) {
        lock.lock()
        let removed = collect(self).filter { $0.raiseFlag() }
        lock.unlock()
        for subscriber in removed { subscriber.finishCancelling() }
    }

    /// Cancels everything and ignores later triggers and watches.
    func close() {
        removeAll { core in
            core.isClosed = true
            return core.takeEverything()
        }
    }

    /// Empties every bucket, returning what they held; the caller holds the lock.
    func takeEverything() -> [Subscriber] {
        var all: [Subscriber] = []
        for channel in Array(types.values) + Array(names.values) {
            all += channel.everyone.removeAll()
            for key in Array(channel.bySender.keys) { all += channel.bySender[key]?.removeAll() ?? [] }
            channel.bySender = [:]
        }
        for key in Array(senders.keys) { all += senders[key]?.removeAll() ?? [] }
        senders = [:]
        names = names.filter { $0.value.last != nil }
        return all
    }

    // MARK: Inspecting

    /// Live subscriptions with an id of at least `firstID`, in registration order.
    func liveSubscribers(since firstID: UInt64 = 0) -> [Subscriber] {
        lock.withLock {
            var all: [Subscriber] = []
            // The report reads what it returns after the lock is released: none of it may be reused.
            for channel in types.values { channel.handOuts &+= 1 }
            for channel in Array(types.values) + Array(names.values) { all += channel.allSubscribers }
            for bucket in senders.values { all += bucket.subscribers }
            return all.filter { $0.id >= firstID && $0.isLive }.sorted { $0.id < $1.id }
        }
    }
}
