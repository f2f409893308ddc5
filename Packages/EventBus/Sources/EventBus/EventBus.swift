
/// Placeholder for the EventBus module; its API arrives with its issue.
public enum EventBusModule {
    /// The module's name.
    public static let name = "EventBus"
}
