import Errors
/// Placeholder for the Commands module; its API arrives with its issue.
public enum CommandsModule {
    /// The module's name.
    public static let name = "Commands"
}
