/// A publish/subscribe hub for typed and named events.
///
/// ```swift
/// let bus = Bus()
/// var bag = Subscriptions()
/// bus.watch(NetworkActivity.self) { event in print(event.active) }.store(in: &bag)
/// bus.trigger(NetworkActivity(active: true))
/// ```
///
/// Subscribers are called in registration order; an event triggered from inside a handler is
/// delivered after the current one has reached everybody; a cancelled subscription is never
/// called again. See <doc:DeliveryGuarantees>.
///
/// A bus is `Sendable`: trigger, watch and cancel from any thread or task. Releasing a bus (or
/// calling ``close()``) cancels all of its subscriptions.
public final class Bus: Sendable {
    @usableFromInline let core: BusCore
    /// Keeps the parent of a scoped bus alive for as long as the scoped bus forwards to it.
    private let parent: Bus?

    /// Makes an empty bus.
    public init() {
        core = BusCore(parent: nil)
        parent = nil
    }

    private init(parent: Bus) {
        core = BusCore(parent: parent.core)
        self.parent = parent
    }

    deinit {
        core.close()
    }

    /// Makes a child bus — for a screen, a request, a document — whose events are delivered to
    /// its own subscribers and then forwarded to this bus. The child is torn down, with every
    /// subscription made on it, when it is released or closed; this bus is unaffected.
    public func scoped() -> Bus {
        Bus(parent: self)
    }

    /// Cancels every subscription, finishes every stream, and ignores later triggers and
    /// watches (a watch on a closed bus returns a cancelled token).
    public func close() {
        core.close()
    }

    /// Whether the bus was closed.
    public var isClosed: Bool { core.lock.withLock { core.isClosed } }

    /// Triggers a typed event, delivering it to every subscriber of its type (and, with a
    /// sender, to the subscribers of that sender), in registration order.
    ///
    /// - Parameters:
    ///   - event: The event. A ``NamedEvent`` is delivered as if triggered by name.
    ///   - sender: The object the event comes from, matched by identity and never retained.
    @inlinable
    public func trigger<E: Event>(_ event: E, from sender: AnyObject? = nil) {
        // Inlined so that the event is handed over as a pointer to a value of a known type, and
        // remembered (for replay) by code specialised for E: no existential, no dynamic cast.
        if E.self == NamedEvent.self, let named = event as? NamedEvent {
            trigger(named.name, data: named.data, from: sender)
            return
        }
        withUnsafePointer(to: event) {
            core.post(
                UnsafeRawPointer($0), type: ObjectIdentifier(E.self), from: sender, name: nil,
                remember: { TypedLastEvent<E>.remember(event, in: &$0) }, box: { event })
        }
    }

    /// Triggers a named event, iStructure style.
    ///
    /// - Parameters:
    ///   - name: The event's name; subscribers of this name receive it.
    ///   - data: Loosely typed data, readable as ``NamedEvent/data``.
    ///   - sender: The object the event comes from, matched by identity and never retained.
    public func trigger(_ name: String, data: [String: any Sendable] = [:], from sender: AnyObject? = nil) {
        let event = NamedEvent(name: name, data: data)
        withUnsafePointer(to: event) {
            core.post(
                UnsafeRawPointer($0), type: ObjectIdentifier(NamedEvent.self), from: sender, name: name,
                remember: { TypedLastEvent<NamedEvent>.remember(event, in: &$0) }, box: { event })
        }
    }
}
