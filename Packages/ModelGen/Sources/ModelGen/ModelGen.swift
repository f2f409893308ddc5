import Errors
import Mustache
import Yams
/// Placeholder for the ModelGen module; its API arrives with its issue.
public enum ModelGenModule {
    /// The module's name.
    public static let name = "ModelGen"
}
