import Errors
/// Placeholder for the Operations module; its API arrives with its issue.
public enum OperationsModule {
    /// The module's name.
    public static let name = "Operations"
}
