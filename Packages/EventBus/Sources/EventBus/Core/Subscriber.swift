/// What a subscription listens to.
@usableFromInline
enum Topic: Hashable, Sendable {
    /// Every event of one type.
    case type(ObjectIdentifier)
    /// Named events with one name.
    case name(String)
    /// Every event, typed or named, from one sender.
    case anyEvent
}

#if !canImport(Darwin)
    import Synchronization
#endif

/// One subscription as the bus stores it: an erased handler, the cancellation flag checked
/// before each call, the optional sender filter and where it was made (for leak reports).
///
/// The handler is erased to a call through a raw pointer so that delivery needs neither an
/// existential box nor a dynamic cast: a subscriber stored under the channel of `E` is only
/// ever handed a pointer to an `E` (or, when `receivesAnyEvent`, to an `any Event`).
///
/// Synchronous typed subscriptions are ``TypedSubscriber``s, which hold the handler themselves
/// so that `call` captures nothing: one allocation per subscription instead of two. Those without
/// a sender are also reused, when no other thread was ever given them (`wasNeverHandedOut`): the
/// released token hands its subscriber to its thread's spare slot (`DeliveryThread`) for the next
/// watch of that event type. The fields a reuse rewrites are `var`s, written only by the thread
/// that holds the subscriber's references (the token's or the spare slot's, and the one its old
/// bucket left it) and that no other thread has ever read.
@usableFromInline
class Subscriber: @unchecked Sendable {
    /// Registration order: ids grow with every `watch` on a bus. Set under the bus lock by
    /// `register`, before the subscriber is stored anywhere.
    @exclusivity(unchecked) final var id: UInt64 = 0
    let topic: Topic
    /// The erased handler, given the subscriber itself and a pointer to the event.
    let call: @Sendable (Subscriber, UnsafeRawPointer) -> Void
    /// True when `invoke` expects an `any Event` rather than the channel's concrete type.
    let receivesAnyEvent: Bool
    /// True when `invoke` only queues the event (async contexts, streams): such subscribers
    /// may be handed a replayed event while the bus lock is held, keeping it first in line.
    let isQueued: Bool
    /// True when the subscription only accepts events from `sender`.
    let filtersSender: Bool
    /// Held weakly and compared by identity; set once, in `init`. Weak loads are thread-safe.
    private(set) weak var sender: AnyObject?
    let senderKey: ObjectIdentifier?
    /// The sender's class, named only for a leak report: a metatype costs nothing to keep,
    /// where a name string was made for every sender watch and released with every subscriber.
    let senderClass: AnyObject.Type?
    let eventType: Any.Type
    @exclusivity(unchecked) @usableFromInline final var file: StaticString
    @exclusivity(unchecked) @usableFromInline final var line: UInt
    /// True for a synchronous typed subscription without a sender: once cancelled and held by
    /// nothing but its token (and the reference its old bucket left it), the token's release hands
    /// it to the thread's spare slot.
    let isReusable: Bool
    /// Its channel's `handOuts` when `register` stored it (under the bus lock).
    @exclusivity(unchecked) final var handOutsWhenStored: UInt64 = 0
    /// Set by `BusCore.cancel`, under the bus lock and before the flag is raised, when no other
    /// thread was ever given this subscriber and its bucket dropped it: no delivery has read its
    /// handler or ever will, so the token's release may reuse it. Read only after an acquiring
    /// load saw the flag raised; a reuse clears it before the subscriber is stored again.
    @exclusivity(unchecked) @usableFromInline final var wasNeverHandedOut = false
    private let onCancel: (@Sendable () -> Void)?

    // The cancellation flag, read before every call. Inline and atomic where `Atomic` is always
    // available (one allocation less per subscription); a separate flag object on Apple
    // platforms, where `Atomic` needs macOS 15 / iOS 18.
    #if canImport(Darwin)
        private let flag = CancelFlag.make()

        /// Whether the subscription was cancelled.
        @inline(__always) var isCancelled: Bool { flag.isRaised }

        /// Raises the cancellation flag; true for the one call that raised it.
        @inline(__always) func raiseFlag() -> Bool { flag.raise() }

        /// Raises the flag of a subscriber the caller (holding the bus lock) saw not cancelled.
        @inline(__always) func raiseLoweredFlag() { _ = flag.raise() }

        /// Lowers the flag of a subscriber nothing else holds, for its reuse.
        @usableFromInline func lowerFlag() { flag.lower() }
    #else
        /// Internal to the module, for `lowerFlag`, which `watch` inlines.
        @usableFromInline let flag = Atomic<Bool>(false)

        /// Whether the subscription was cancelled.
        @inline(__always) var isCancelled: Bool { flag.load(ordering: .acquiring) }

        /// Raises the cancellation flag; true for the one call that raised it. Every caller holds
        /// the bus lock, which decides which call is first: so a load and a store suffice, where
        /// a read-modify-write would cost an atomic instruction per cancel.
        @inline(__always) func raiseFlag() -> Bool {
            if flag.load(ordering: .acquiring) { return false }
            flag.store(true, ordering: .releasing)
            return true
        }

        /// Raises the flag of a subscriber the caller (holding the bus lock) saw not cancelled:
        /// a releasing store, which publishes what the caller wrote before it.
        @inline(__always) func raiseLoweredFlag() { flag.store(true, ordering: .releasing) }

        /// Lowers the flag of a subscriber nothing else holds, for its reuse. Inlinable: a call
        /// for one store cost more than the store.
        @inlinable @inline(__always) final func lowerFlag() { flag.store(false, ordering: .releasing) }
    #endif

    init(
        topic: Topic, sender: AnyObject?, eventType: Any.Type, receivesAnyEvent: Bool = false,
        isQueued: Bool = false, isReusable: Bool = false, file: StaticString, line: UInt,
        onCancel: (@Sendable () -> Void)? = nil, call: @escaping @Sendable (Subscriber, UnsafeRawPointer) -> Void
    ) {
        self.topic = topic
        // Only when there is one: assigning nil to the weak reference is a runtime call.
        if let sender { self.sender = sender }
        self.filtersSender = sender != nil
        self.senderKey = sender.map(ObjectIdentifier.init)
        self.senderClass = sender.map { type(of: $0) }
        self.eventType = eventType
        self.receivesAnyEvent = receivesAnyEvent
        self.isQueued = isQueued
        self.isReusable = isReusable
        self.file = file
        self.line = line
        self.onCancel = onCancel
        self.call = call
    }

    /// Calls the handler with the event `pointer` points to.
    @inline(__always)
    final func invoke(_ pointer: UnsafeRawPointer) {
        call(self, pointer)
    }

    /// Calls the handler with an event of the subscription's type, given as an existential (a
    /// replay or a queued delivery): the existential is opened to reach a pointer to the value.
    func invoke(with event: any Event) {
        func open<E: Event>(_ event: E) {
            withUnsafePointer(to: event) { invoke(UnsafeRawPointer($0)) }
        }
        open(event)
    }

    /// Not cancelled, and if it filters by sender, that sender is still alive.
    var isLive: Bool { !isCancelled && (!filtersSender || sender != nil) }

    /// Releases what the handler captured; only reusable subscribers have anything to do.
    func dropHandler() {}

    /// Runs the cancel hook (finishing a stream, ending a delivery task) after `raiseFlag()`
    /// succeeded under the bus lock. Call it with the lock released.
    func finishCancelling() {
        onCancel?()
    }

    /// What the subscription is for, for leak reports.
    var info: SubscriptionInfo {
        let what: String
        switch topic {
        case .type: what = String(reflecting: eventType)
        case .name(let name): what = "\"\(name)\""
        case .anyEvent: what = "every event"
        }
        return SubscriptionInfo(
            topic: what, senderType: senderClass.map { String(describing: $0) }, file: "\(file)", line: Int(line),
            isSenderAlive: sender != nil)
    }
}

/// A synchronous subscription to events of type `E`, holding its handler.
@usableFromInline
final class TypedSubscriber<E: Event>: Subscriber, @unchecked Sendable {
    /// A `let`, so that a delivery calls it in place: reading a `var` closure copies it, a retain
    /// and a release of its context per subscriber per event (fan-outs ran three times slower).
    /// Only `reuse` and `dropHandler` change it, through ``ReusedSubscriber``, on a subscriber
    /// that no delivery was ever given (`wasNeverHandedOut`) and nothing but the caller holds. Nil only in a spare: a
    /// no-op closure made in this generic class would capture E's metadata, an allocation.
    @usableFromInline let handler: (@Sendable (E) -> Void)?

    /// Makes the subscriber; `call` (written where `E` is concrete, so that it captures
    /// nothing) reaches `handler` through the subscriber it is given.
    @usableFromInline
    init(
        sender: AnyObject?, file: StaticString, line: UInt, handler: @escaping @Sendable (E) -> Void,
        call: @escaping @Sendable (Subscriber, UnsafeRawPointer) -> Void
    ) {
        self.handler = handler
        super.init(
            topic: .type(ObjectIdentifier(E.self)), sender: sender, eventType: E.self,
            isReusable: sender == nil, file: file, line: line, call: call)
    }

    /// Makes `spare` (a cancelled `TypedSubscriber<E>` without a sender that nothing else holds
    /// and no other thread was ever given) a new subscription: the same `call`, the same event type and no sender, with a new handler
    /// and place; `register` gives it its id. Inlined into `watch`, so that the handler is stored
    /// without a reabstraction thunk.
    @inlinable
    static func reuse(
        _ spare: consuming Subscriber, file: StaticString, line: UInt, handler: @escaping @Sendable (E) -> Void
    ) -> Subscriber {
        Unmanaged.passUnretained(spare)._withUnsafeGuaranteedRef { spare in
            spare.file = file
            spare.line = line
            spare.wasNeverHandedOut = false
            ReusedSubscriber<E>.view(of: spare)._withUnsafeGuaranteedRef { $0.handler = handler }
            spare.lowerFlag()
        }
        return spare
    }

    /// Releases the handler (and what it captured) of a subscriber about to wait as a spare,
    /// as if the subscriber had been freed.
    override func dropHandler() {
        ReusedSubscriber<E>.view(of: self)._withUnsafeGuaranteedRef { $0.handler = nil }
    }
}

/// The layout of ``TypedSubscriber`` with its handler writable: the same superclass and the same
/// one stored property, so a `TypedSubscriber<E>` seen as a `ReusedSubscriber<E>` has its handler
/// at the same place. Never made; only `TypedSubscriber.reuse` and `dropHandler` look through it,
/// to change the handler of a spare that nothing else holds and no delivery was ever given.
@usableFromInline
final class ReusedSubscriber<E: Event>: Subscriber, @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline var handler: (@Sendable (E) -> Void)?

    /// `subscriber` (a `TypedSubscriber<E>`) seen through this layout, unretained. Not
    /// `unsafeDowncast`, which checks the class in debug builds.
    @inlinable
    static func view(of subscriber: Subscriber) -> Unmanaged<ReusedSubscriber<E>> {
        .fromOpaque(Unmanaged.passUnretained(subscriber).toOpaque())
    }

    private init(
        handler: @escaping @Sendable (E) -> Void, call: @escaping @Sendable (Subscriber, UnsafeRawPointer) -> Void
    ) {
        self.handler = handler
        super.init(
            topic: .type(ObjectIdentifier(E.self)), sender: nil, eventType: E.self, file: #fileID, line: #line,
            call: call)
    }
}
