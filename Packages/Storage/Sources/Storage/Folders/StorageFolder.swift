import Foundation

/// Where a store keeps its files: one of the platform's standard folders, or any folder.
///
/// On Apple platforms the standard folders are the system's (`Documents`,
/// `Library/Caches`, `Library/Application Support`, the temporary directory). On Linux and
/// other platforms they follow the XDG base directory specification:
///
/// | Folder | Linux |
/// | --- | --- |
/// | ``documents`` | `$XDG_DOCUMENTS_DIR`, else `~/Documents` |
/// | ``applicationSupport`` | `$XDG_DATA_HOME`, else `~/.local/share` |
/// | ``caches`` | `$XDG_CACHE_HOME`, else `~/.cache` |
/// | ``temporary`` | `$TMPDIR`, else `/tmp` |
///
/// A store namespaces the standard folders by app id (`~/.local/share/com.example.notes`),
/// and creates them on demand. A ``custom(_:)`` folder is used as given.
public enum StorageFolder: Sendable, Hashable {
    /// The user's documents: files the user created and expects to see and back up.
    case documents
    /// The app's caches: data that can be recreated; the system may purge it.
    case caches
    /// The app's support files: state the app needs that the user does not manage.
    case applicationSupport
    /// Temporary files, removed by the system at its discretion.
    case temporary
    /// Any folder, used as given (not namespaced by app id).
    case custom(URL)

    /// The folder for `app`, without creating it.
    ///
    /// - Parameters:
    ///   - app: The app's identifier, such as `"com.example.notes"`; ignored by ``custom(_:)``.
    ///   - environment: The environment to read XDG variables from (the process's by default).
    public func url(app: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        switch self {
        case .custom(let url): return url
        case .temporary:
            return FileManager.default.temporaryDirectory.appendingPathComponent(app, isDirectory: true)
        default:
            return base(environment: environment).appendingPathComponent(app, isDirectory: true)
        }
    }

    private func base(environment: [String: String]) -> URL {
        #if canImport(Darwin)
            let directory: FileManager.SearchPathDirectory =
                switch self {
                case .documents: .documentDirectory
                case .caches: .cachesDirectory
                default: .applicationSupportDirectory
                }
            if let url = FileManager.default.urls(for: directory, in: .userDomainMask).first { return url }
            return FileManager.default.temporaryDirectory
        #else
            let home =
                environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            func xdg(_ variable: String, _ fallback: String) -> URL {
                // The specification says relative paths in these variables are invalid: ignore them.
                if let value = environment[variable], value.hasPrefix("/") {
                    return URL(fileURLWithPath: value, isDirectory: true)
                }
                return home.appendingPathComponent(fallback, isDirectory: true)
            }
            switch self {
            case .documents: return xdg("XDG_DOCUMENTS_DIR", "Documents")
            case .caches: return xdg("XDG_CACHE_HOME", ".cache")
            default: return xdg("XDG_DATA_HOME", ".local/share")
            }
        #endif
    }
}
