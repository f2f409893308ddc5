import _KitSupport

/// One trigger as an ``EventRecorder`` saw it.
public struct RecordedTrigger: Sendable {
    /// The event (a ``NamedEvent`` for named triggers).
    public var event: any Event
    /// The name, for named triggers.
    public var name: String?
    /// The identity of the sender, if there was one (the sender itself is not retained).
    public var senderID: ObjectIdentifier?
    /// The type name of the sender, if there was one.
    public var senderType: String?

    /// Whether the trigger came from `sender`.
    public func isFrom(_ sender: AnyObject) -> Bool { senderID == ObjectIdentifier(sender) }
}

/// Records what is triggered on a bus, in trigger order — for tests that check what a command
/// or a screen announced.
///
/// ```swift
/// let recorder = bus.startRecording()
/// bus.trigger(NetworkActivity(active: true))
/// #expect(recorder.events(of: NetworkActivity.self).map(\.active) == [true])
/// ```
///
/// Recording stops with ``stop()`` or when the recorder is released.
public final class EventRecorder: Sendable {
    private let core: BusCore
    private let tapID: UInt64
    private let recorded: Locked<[RecordedTrigger]>

    init(core: BusCore) {
        let recorded = Locked<[RecordedTrigger]>([])
        self.core = core
        self.recorded = recorded
        tapID = core.lock.withLock {
            let id = core.takeID()
            core.taps[id] = { trigger in recorded.withLock { $0.append(trigger) } }
            return id
        }
    }

    deinit {
        stop()
    }

    /// Every trigger so far, in order.
    public var triggers: [RecordedTrigger] { recorded.withLock { $0 } }

    /// The recorded events of one type, in order.
    public func events<E: Event>(of type: E.Type) -> [E] {
        recorded.withLock { $0 }.compactMap { $0.event as? E }
    }

    /// The names of the recorded named events, in order.
    public var names: [String] { recorded.withLock { $0 }.compactMap(\.name) }

    /// Forgets what was recorded so far.
    public func reset() {
        recorded.withLock { $0 = [] }
    }

    /// Stops recording; what was recorded stays readable.
    public func stop() {
        core.lock.withLock { _ = core.taps.removeValue(forKey: tapID) }
    }
}

extension Bus {
    /// Starts recording every trigger on this bus (not on its scoped children), in order.
    public func startRecording() -> EventRecorder {
        EventRecorder(core: core)
    }
}
