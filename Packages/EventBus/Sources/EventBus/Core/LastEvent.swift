/// The last event of a channel, kept for replay (sticky events).
///
/// It lives in a box of the event's own type, updated in place by code specialised for that
/// type (see ``Bus/trigger(_:from:)``), so remembering the last event on every trigger is a
/// plain store rather than an existential copy. Guarded by the bus lock.
@usableFromInline
class LastEvent: @unchecked Sendable {
    @usableFromInline
    init() {}

    /// The event, boxed.
    var event: any Event { preconditionFailure("LastEvent is abstract") }
}

/// A copy of a last event, taken under the bus lock for a new synchronous subscriber.
/// A class, so that "nothing to replay" — the common case — is a cheap nil.
@usableFromInline
final class Replay: Sendable {
    @usableFromInline let event: any Event

    init(_ event: any Event) { self.event = event }
}

/// The last event of type `E`.
@usableFromInline
final class TypedLastEvent<E: Event>: LastEvent, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var value: E

    @usableFromInline
    init(_ value: E) {
        self.value = value
        super.init()
    }

    override var event: any Event { value }

    /// Stores `event` in `slot`, reusing the box already there. A channel only ever holds
    /// events of one type, so the box in the slot is known to be a `TypedLastEvent<E>`.
    @inlinable
    static func remember(_ event: E, in slot: inout LastEvent?) {
        if let slot {
            unsafeDowncast(slot, to: TypedLastEvent<E>.self).value = event
        } else {
            slot = TypedLastEvent(event)
        }
    }
}
