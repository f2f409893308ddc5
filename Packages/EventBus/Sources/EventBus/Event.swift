/// A value that can be triggered on a ``Bus``.
///
/// `Event` is a marker: any `Sendable` type can be an event by conforming to it, and the type
/// itself is what subscribers watch.
///
/// ```swift
/// struct NetworkActivity: Event { var active: Bool }
/// bus.trigger(NetworkActivity(active: true))
/// ```
public protocol Event: Sendable {}

/// An event identified by a name and carrying loosely typed data, in the style of
/// iStructure's `$trigger("name", data)`.
///
/// Named events travel on the same bus as typed ones: watch them by name with
/// ``Bus/watch(_:from:on:replayLast:file:line:_:)-(String,_,_,_,_,_,_)``, or watch every
/// named event by watching `NamedEvent.self`.
public struct NamedEvent: Event {
    /// The event's name, such as `"network:on"`.
    public var name: String
    /// The data the event was triggered with.
    public var data: [String: any Sendable]

    /// Makes a named event.
    public init(name: String, data: [String: any Sendable] = [:]) {
        self.name = name
        self.data = data
    }
}

/// Triggered on the bus when a handler registered with
/// ``Bus/watchAsync(_:from:replayLast:file:line:_:)`` throws: the failure is reported to
/// whoever watches `HandlerFailed`, and other subscribers are unaffected.
public struct HandlerFailed: Event {
    /// What the handler threw.
    public var error: any Error
    /// The type of the event the handler was handling.
    public var eventType: String
    /// Where the failing subscription was made, as `file:line`.
    public var location: String
}
