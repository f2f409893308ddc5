import Errors
/// Placeholder for the Router module; its API arrives with its issue.
public enum RouterModule {
    /// The module's name.
    public static let name = "Router"
}
