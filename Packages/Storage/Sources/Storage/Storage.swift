import Serialization
/// Placeholder for the Storage module; its API arrives with its issue.
public enum StorageModule {
    /// The module's name.
    public static let name = "Storage"
}
