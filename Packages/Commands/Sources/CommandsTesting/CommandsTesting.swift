import Commands
/// Placeholder for the CommandsTesting module; its API arrives with its issue.
public enum CommandsTestingModule {
    /// The module's name.
    public static let name = "CommandsTesting"
}
