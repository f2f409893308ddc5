/// Subscribers of one key, in registration order. Cancelled subscribers are dropped lazily,
/// once they make up half the bucket, so cancelling is amortised O(1) and a snapshot taken
/// before the compaction simply skips them.
///
/// A bucket keyed by a sender also holds that sender, weakly: a trigger checks the identity once
/// per bucket (not per subscriber), and a bucket whose sender is gone — its address possibly
/// reused by a new object — is emptied before it is used again.
struct Bucket {
    private(set) var subscribers: ContiguousArray<Subscriber> = []
    private var cancelled = 0
    private var owner: WeakSender?

    var isEmpty: Bool { subscribers.isEmpty }

    mutating func append(_ subscriber: Subscriber) {
        subscribers.append(subscriber)
    }

    /// Whether `subscriber` is the newest: `noteCancelled` then removes it at once.
    @inline(__always)
    func isNewest(_ subscriber: Subscriber) -> Bool { subscribers.last === subscriber }

    /// Records that `subscriber` was cancelled, compacting when worthwhile. The newest
    /// subscriber going first (short-lived subscriptions) is removed at once.
    mutating func noteCancelled(_ subscriber: Subscriber) {
        if subscribers.last === subscriber {
            removeNewest()
            return
        }
        cancelled += 1
        if cancelled * 2 >= subscribers.count { compact() }
    }

    /// Removes the newest subscriber, just cancelled, and the cancelled ones it leaves last.
    @inline(__always)
    mutating func removeNewest() {
        subscribers.removeLast()
        dropCancelledTail()
    }

    /// Removes the newest subscriber, just cancelled, like `removeNewest`, but without releasing
    /// the bucket's reference to it: the caller takes that reference over (a reusable
    /// subscriber keeps it for its next registration, see `Channel.cancelInEveryone`), which
    /// saves an atomic decrement now and an atomic increment when it is stored again.
    ///
    /// `sink`: a word of scratch memory, bound to `Subscriber`, that the reference is moved
    /// into and left in, never released (the caller holds the bus lock, which guards it).
    /// Moving it there is what keeps the count as it is: no retain or release is emitted,
    /// where letting the optimiser pair a `passRetained` with the end of the removed value left
    /// both in place.
    ///
    /// The store overwrites what the previous use left in the word, and the next overwrites it
    /// in turn, with no read of this value in between. An optimiser that took it for a dead store
    /// could replace it with a release of the value: an over-release. It cannot: the word is
    /// reachable from the core (it escapes), and every use is inside the bus lock, whose
    /// `unlock` (a releasing operation, opaque to the optimiser) follows each store before the
    /// next use can come, so the store is never provably dead. Keep each use inside the lock.
    @inline(__always)
    mutating func removeNewestKeepingReference(sink: UnsafeMutablePointer<Subscriber>) {
        sink.initialize(to: subscribers.removeLast())
        dropCancelledTail()
    }

    /// Appends `subscriber`, whose reference the caller hands over without a count of its own
    /// for it (see `removeNewestKeepingReference`): the bucket stores it without a retain.
    /// `scratch` is as there.
    @inline(__always)
    mutating func appendHandingOver(_ subscriber: Subscriber, scratch: UnsafeMutablePointer<Subscriber>) {
        // The reference's bits, read back as an owned `Subscriber` (a take, no retain).
        UnsafeMutableRawPointer(scratch).storeBytes(
            of: Unmanaged.passUnretained(subscriber).toOpaque(), as: UnsafeMutableRawPointer.self)
        subscribers.append(scratch.move())
    }

    /// Drops the cancelled subscribers left last by a removal.
    @inline(__always)
    private mutating func dropCancelledTail() {
        while let last = subscribers.last, last.isCancelled {
            subscribers.removeLast()
            cancelled = max(0, cancelled - 1)
        }
        if subscribers.isEmpty { cancelled = 0 }
    }

    /// Drops cancelled subscribers and those whose sender is gone.
    mutating func compact() {
        subscribers.removeAll { !$0.isLive }
        cancelled = 0
    }

    /// Makes `sender` the bucket's sender; if the bucket belonged to an object that is gone
    /// (whose address `sender` now reuses), its inert subscribers are dropped first.
    mutating func adopt(_ sender: AnyObject) {
        guard owner?.object !== sender else { return }
        subscribers.removeAll { $0.isCancelled || $0.sender !== sender }
        owner = WeakSender(sender)
        cancelled = 0
    }

    /// Whether the bucket's subscribers watch `sender` itself (checked by identity), rather
    /// than a deallocated object that had the same address.
    @inline(__always)
    func isOwned(by sender: AnyObject) -> Bool {
        owner?.object === sender
    }

    /// Empties the bucket, returning what it held.
    mutating func removeAll() -> ContiguousArray<Subscriber> {
        defer {
            subscribers = []
            cancelled = 0
        }
        return subscribers
    }
}

/// A weak reference to a sender, for the last event a channel remembers.
final class WeakSender: @unchecked Sendable {
    private(set) weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

/// Everything a bus knows about one topic (an event type or an event name): subscribers that
/// take every sender, subscribers keyed by sender identity, and the last event (for replay).
///
/// Guarded by the bus lock, hence no dynamic exclusivity checks.
final class Channel {
    @exclusivity(unchecked) var everyone = Bucket()
    @exclusivity(unchecked) var bySender: [ObjectIdentifier: Bucket] = [:]
    @exclusivity(unchecked) var last: LastEvent?
    @exclusivity(unchecked) var lastSender: WeakSender?
    @exclusivity(unchecked) var lastHadSender = false
    /// How many times `everyone`'s subscribers were handed out of the lock (a trigger's snapshot,
    /// a leak report). A subscriber records it when it is stored: if it is unchanged when the
    /// subscriber is cancelled, no other thread has ever been given that subscriber, which is
    /// what makes its storage safe to reuse (see `cancelInEveryone`).
    @exclusivity(unchecked) var handOuts: UInt64 = 0

    var isEmpty: Bool { everyone.isEmpty && bySender.isEmpty && last == nil }

    /// Cancels `subscriber`, a live one of `everyone`; the caller holds the bus lock.
    ///
    /// When the bucket drops it at once (it is the newest) and the channel handed out no
    /// subscribers since it was stored, no other thread has ever been given it: snapshots are
    /// taken under this lock, so none before holds it and none after can take it, and no delivery
    /// has read or will read its handler. It is then marked `wasNeverHandedOut`, which lets its
    /// token's release reuse it. The mark is written before the flag's releasing store, so
    /// whoever sees the flag raised (the token's release, with an acquiring load) sees the mark.
    ///
    /// A marked subscriber also keeps the bucket's reference to it (a second strong reference,
    /// besides its token's): the token's release hands both to the thread's spare slot, and the
    /// next `register` stores it with that reference instead of retaining it. Whoever drops a
    /// marked subscriber instead releases that reference too (`WatchToken.deinit`,
    /// `DeliveryThread.keepSpare`, a thread's end).
    /// `sink` is the core's scratch word (`BusCore.scratch`).
    @inline(__always)
    func cancelInEveryone(_ subscriber: Subscriber, sink: UnsafeMutablePointer<Subscriber>) {
        if everyone.isNewest(subscriber) {
            let isNeverHandedOut = subscriber.isReusable && handOuts == subscriber.handOutsWhenStored
            subscriber.wasNeverHandedOut = isNeverHandedOut
            subscriber.raiseLoweredFlag()
            if isNeverHandedOut {
                everyone.removeNewestKeepingReference(sink: sink)
            } else {
                everyone.removeNewest()
            }
        } else {
            subscriber.raiseLoweredFlag()
            everyone.noteCancelled(subscriber)
        }
    }

    /// Remembers the event being triggered by `sender` as the one to replay; `store` writes it.
    @inline(__always)
    func remember(_ store: (inout LastEvent?) -> Void, from sender: AnyObject?) {
        store(&last)
        if let sender {
            if lastSender?.object !== sender { lastSender = WeakSender(sender) }
            lastHadSender = true
        } else {
            lastHadSender = false
        }
    }

    /// The last event, if it may be replayed to a subscription filtering on `sender`.
    func replayable(for sender: AnyObject?) -> LastEvent? {
        guard let last else { return nil }
        guard let sender else { return last }
        return lastHadSender && lastSender?.object === sender ? last : nil
    }

    /// Every subscriber of the channel, cancelled or not.
    var allSubscribers: [Subscriber] {
        Array(everyone.subscribers) + bySender.values.flatMap(\.subscribers)
    }
}
