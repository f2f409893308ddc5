import Errors
/// Placeholder for the Serialization module; its API arrives with its issue.
public enum SerializationModule {
    /// The module's name.
    public static let name = "Serialization"
}
