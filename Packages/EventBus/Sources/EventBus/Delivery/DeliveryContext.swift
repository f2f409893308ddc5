/// Where and when a subscription's handler runs.
public enum DeliveryContext: Sendable, Hashable {
    /// On the triggering thread, before `trigger` returns (unless the trigger happened inside a
    /// handler of the same bus, in which case after the current event has been delivered).
    case synchronous
    /// On the main actor, one event after another in trigger order.
    case mainActor
    /// On a task of its own, one event after another in trigger order; a slow handler delays
    /// only itself.
    case asynchronous
}
