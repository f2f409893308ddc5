import Errors
import Foundation

/// What went wrong while storing or loading a value, and where.
///
/// Every case names the file (or key) involved, so a message in a log or an alert tells the
/// user which document is affected.
public enum StorageError: AppError {
    /// A key was empty, absolute, contained `..`, a NUL byte or an empty component.
    case invalidKey(String, reason: String)
    /// A key is too long to be stored: its file name is longer than `limit` bytes (255, the
    /// file-system limit, minus room for the store's temporary, lock and quarantine names), or,
    /// when the name fits, the whole key is longer than `limit` bytes, the room the system's
    /// path limit leaves inside the store's folder.
    case keyTooLong(String, limit: Int)
    /// A folder could not be found or created.
    case folderUnavailable(URL, underlying: (any Error)?)
    /// Nothing is stored under the key.
    case notFound(URL)
    /// The file exists but could not be read.
    case unreadable(URL, underlying: any Error)
    /// The file could not be written (permissions, read-only folder, full disk…).
    case unwritable(URL, underlying: any Error)
    /// The file's bytes did not decode; it was moved aside to `movedTo` (when not nil) so that
    /// nothing ever writes over it.
    case corrupt(URL, movedTo: URL?, underlying: any Error)
    /// The file was written by a newer version of the app than this one understands; it was
    /// left untouched.
    case newerVersion(URL, underlying: any Error)
    /// A migration step of a `Versioned` model failed on the file's data (a hand-written step or
    /// a generated hook threw), or the data is older than the oldest version the model reads
    /// (`Versioned.oldestStoredVersion`); the file was left untouched, so a fixed app can load it.
    case migrationFailed(URL, underlying: any Error)
    /// The file decodes, but none of its top-level `keys` is one the model knows: it is another
    /// shape of data (an old keyed archive, another app's file), which merging over defaults
    /// would turn into "all defaults" and the next save would destroy. It was left untouched.
    case unrecognized(URL, keys: [String])
    /// The value could not be encoded for writing.
    case encodingFailed(URL, underlying: any Error)
    /// No format is known for the file's extension and none was given.
    case unknownFormat(URL)
    /// The cross-process lock beside the file could not be taken.
    case lockFailed(URL, errno: Int32)
    /// There is neither a save file nor defaults to start from.
    case noDefaults(URL)
    /// A record store was asked to insert a record whose id already exists.
    case duplicateRecord(id: String, in: String)
    /// A record store was asked to update or delete a record that does not exist.
    case recordNotFound(id: String, in: String)
    /// The record database failed.
    case database(String, underlying: any Error)

    /// A sentence naming the problem and the file.
    public var message: String {
        switch self {
        case .invalidKey(let key, let reason):
            "The storage key \(Self.quoted(key)) is invalid: \(reason)."
        case .keyTooLong(let key, let limit):
            "The storage key \(Self.quoted(key)) is too long: "
                + (key.split(separator: "/").last.map { $0.utf8.count > limit } ?? false
                    ? "its file name is longer than \(limit) bytes, the most a key's file name may have."
                    : "it is longer than \(limit) bytes, the most a key may have in this store's folder.")
        case .folderUnavailable(let url, let underlying):
            "The folder \(url.path) is not available"
                + (underlying.map { ": \(Self.describe($0))" } ?? ".")
        case .notFound(let url):
            "Nothing is stored at \(url.path)."
        case .unreadable(let url, let underlying):
            "The file \(url.path) could not be read: \(Self.describe(underlying))"
        case .unwritable(let url, let underlying):
            "The file \(url.path) could not be written: \(Self.describe(underlying))"
        case .corrupt(let url, let movedTo, let underlying):
            "The file \(url.path) is damaged and could not be decoded (\(Self.describe(underlying)))"
                + (movedTo.map { "; it was moved aside to \($0.lastPathComponent)." } ?? ".")
        case .newerVersion(let url, let underlying):
            "The file \(url.path) was saved by a newer version of the app and was left untouched: "
                + Self.describe(underlying)
        case .migrationFailed(let url, let underlying):
            "The file \(url.path) could not be brought to this version of the app and was left untouched: "
                + Self.describe(underlying)
        case .unrecognized(let url, let keys):
            "The file \(url.path) does not hold this app's data (none of its keys is known: "
                + keys.prefix(5).joined(separator: ", ") + (keys.count > 5 ? ", …" : "")
                + "); it was left untouched rather than replaced by defaults."
        case .encodingFailed(let url, let underlying):
            "The value for \(url.path) could not be encoded: \(Self.describe(underlying))"
        case .unknownFormat(let url):
            "No storage format is known for \(url.lastPathComponent); use .json or .plist, or pass a serializer."
        case .lockFailed(let url, let code):
            "The lock for \(url.path) could not be taken: \(String(cString: strerror(code)))."
        case .noDefaults(let url):
            "There is no saved file at \(url.path) and no defaults to start from."
        case .duplicateRecord(let id, let store):
            "A record with id \(id) already exists in \(store)."
        case .recordNotFound(let id, let store):
            "No record with id \(id) exists in \(store)."
        case .database(let path, let underlying):
            "The record database \(path) failed: \(Self.describe(underlying))"
        }
    }

    /// The error this one wraps, if any.
    public var underlyingError: (any Error)? {
        switch self {
        case .folderUnavailable(_, let underlying): underlying
        case .unreadable(_, let underlying), .unwritable(_, let underlying), .corrupt(_, _, let underlying),
            .newerVersion(_, let underlying), .migrationFailed(_, let underlying), .encodingFailed(_, let underlying),
            .database(_, let underlying):
            underlying
        default: nil
        }
    }

    private static func quoted(_ key: String) -> String {
        "\"" + key.replacingOccurrences(of: "\0", with: "\\0") + "\""
    }

    private static func describe(_ error: any Error) -> String {
        (error as? any AppError)?.message ?? error.localizedDescription
    }
}
