import Storage

/// Where an ``AppCore`` keeps its model between launches.
public struct Persistence: Sendable {
    enum Kind: Sendable {
        case none
        case file(name: String, folder: StorageFolder, app: String?)
    }

    let kind: Kind

    /// The model lives in memory only.
    public static let none = Persistence(kind: .none)

    /// The model is saved to `name` in `folder` after every command that changes it, and loaded
    /// from there at launch. The format follows the extension (`.json`, `.plist`).
    /// - Parameters:
    ///   - name: The file name, such as `"model.json"`.
    ///   - folder: The folder, such as `.applicationSupport` or `.custom(url)`.
    ///   - app: The app identifier that namespaces the folder; the process name when nil.
    public static func file(_ name: String, in folder: StorageFolder, app: String? = nil) -> Persistence {
        Persistence(kind: .file(name: name, folder: folder, app: app))
    }
}
