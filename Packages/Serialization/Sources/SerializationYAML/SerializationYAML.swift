import Serialization
import Yams
/// Placeholder for the SerializationYAML module; its API arrives with its issue.
public enum SerializationYAMLModule {
    /// The module's name.
    public static let name = "SerializationYAML"
}
