import GRDB
import Storage
/// Placeholder for the StorageSQLite module; its API arrives with its issue.
public enum StorageSQLiteModule {
    /// The module's name.
    public static let name = "StorageSQLite"
}
