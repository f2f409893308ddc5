import Serialization
/// Placeholder for the Networking module; its API arrives with its issue.
public enum NetworkingModule {
    /// The module's name.
    public static let name = "Networking"
}
