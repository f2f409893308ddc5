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
/// so that `call` captures nothing: one allocation per subscription instead of two.
@usableFromInline
class Subscriber: @unchecked Sendable {
    /// Registration order: ids grow with every `watch` on a bus.
    let id: UInt64
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
    let file: StaticString
    let line: UInt
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
    #else
        private let flag = Atomic<Bool>(false)

        /// Whether the subscription was cancelled.
        @inline(__always) var isCancelled: Bool { flag.load(ordering: .acquiring) }

        /// Raises the cancellation flag; true for the one call that raised it.
        @inline(__always) func raiseFlag() -> Bool {
            // A plain load first: cancelling an already cancelled token (explicitly, then again when
            // the token is released) should not pay for a read-modify-write.
            !flag.load(ordering: .acquiring) && !flag.exchange(true, ordering: .acquiringAndReleasing)
        }
    #endif

    init(
        id: UInt64, topic: Topic, sender: AnyObject?, eventType: Any.Type, receivesAnyEvent: Bool = false,
        isQueued: Bool = false, file: StaticString, line: UInt,
        onCancel: (@Sendable () -> Void)? = nil, call: @escaping @Sendable (Subscriber, UnsafeRawPointer) -> Void
    ) {
        self.id = id
        self.topic = topic
        // Only when there is one: assigning nil to the weak reference is a runtime call.
        if let sender { self.sender = sender }
        self.filtersSender = sender != nil
        self.senderKey = sender.map(ObjectIdentifier.init)
        self.senderClass = sender.map { type(of: $0) }
        self.eventType = eventType
        self.receivesAnyEvent = receivesAnyEvent
        self.isQueued = isQueued
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

    /// Raises the flag and runs the cancel hook; true for the call that actually cancelled.
    /// Never call this while holding the bus lock: the hook may call back into the bus.
    @discardableResult
    func cancel() -> Bool {
        guard raiseFlag() else { return false }
        onCancel?()
        return true
    }

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
    @usableFromInline let handler: @Sendable (E) -> Void

    /// Makes the subscriber; `call` (written where `E` is concrete, so that it captures
    /// nothing) reaches `handler` through the subscriber it is given.
    @usableFromInline
    init(
        id: UInt64, sender: AnyObject?, file: StaticString, line: UInt, handler: @escaping @Sendable (E) -> Void,
        call: @escaping @Sendable (Subscriber, UnsafeRawPointer) -> Void
    ) {
        self.handler = handler
        super.init(
            id: id, topic: .type(ObjectIdentifier(E.self)), sender: sender, eventType: E.self, file: file, line: line,
            call: call)
    }
}
