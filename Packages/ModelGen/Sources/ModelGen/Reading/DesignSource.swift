import Foundation

/// What kind of design a URL names: the one place that decides it, for reading the current
/// design (``ModelDesign/read(from:)``) and every version (``DesignHistory/read(from:)``).
enum DesignSource {
    /// An `.xcdatamodeld` bundle of versions.
    case bundle(URL)
    /// One `.xcdatamodel` version.
    case version(URL)
    /// A `contents` (or `.xml`) file of a version; `name` is the design's name.
    case contents(URL, name: String)
    /// A `.yaml`, `.yml` or `.json` design, with or without a `versions:` list.
    case tree(URL)

    /// The design's name: the file name without its extension (for `contents`, its bundle's).
    var name: String {
        switch self {
        case .bundle(let url), .version(let url), .tree(let url): url.deletingPathExtension().lastPathComponent
        case .contents(_, let name): name
        }
    }

    /// The kind of design at `url`.
    /// - Throws: ``ModelGenError/unreadable(file:reason:)`` when nothing is there,
    ///   ``ModelGenError/notAModel(file:reason:)`` for an extension no reader takes.
    static func of(_ url: URL) throws -> DesignSource {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ModelGenError.unreadable(file: url.path, reason: "no such file or directory")
        }
        switch url.pathExtension.lowercased() {
        case "xcdatamodeld": return .bundle(url)
        case "xcdatamodel": return .version(url)
        case "yaml", "yml", "json": return .tree(url)
        default:
            if url.lastPathComponent == "contents" {
                return .contents(url, name: url.deletingLastPathComponent().deletingPathExtension().lastPathComponent)
            }
            if url.pathExtension.lowercased() == "xml" {
                return .contents(url, name: url.deletingPathExtension().lastPathComponent)
            }
            throw ModelGenError.notAModel(
                file: url.path, reason: "expected .xcdatamodeld, .xcdatamodel, contents, .yaml, .yml or .json")
        }
    }
}
