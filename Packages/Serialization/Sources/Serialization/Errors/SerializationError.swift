import Errors
import Foundation

/// What went wrong while encoding, decoding, reading, writing or migrating, and where.
///
/// Every case carries a ``SerializationError/Location``: the file (when there is one), the
/// format, the key path inside the tree, and for text formats the line and column.
public enum SerializationError: AppError {
    /// The bytes are not valid in the format: a syntax error, or a truncated file.
    case malformed(String, Location)
    /// Text that is not valid UTF-8.
    case invalidUTF8(Location)
    /// A number that does not fit the type it is read as (or is not finite).
    case numberOutOfRange(String, Location)
    /// Nesting deeper than the reader's limit.
    case tooDeep(limit: Int, Location)
    /// Input larger than the reader's limit (bytes, or nodes a binary property list expands to).
    case tooLarge(limit: Int, Location)
    /// An object with the same key twice.
    case duplicateKey(String, Location)
    /// A value of the wrong kind: `expected` is the Swift type, `found` what the tree held.
    case typeMismatch(expected: String, found: String, Location)
    /// A required key is absent.
    case keyNotFound(String, Location)
    /// A required value is `null` or absent.
    case valueNotFound(expected: String, Location)
    /// A value the format cannot represent (a `null` in a property list key, NaN in JSON).
    case unsupportedValue(String, Location)
    /// The bytes match no known format.
    case unknownFormat(Location)
    /// The data was written by a newer version of the model than this program knows.
    case newerVersion(found: ModelVersion, current: ModelVersion, Location)
    /// The data was written by a version of the model older than the oldest this program reads
    /// (its ``Versioned/oldestStoredVersion``).
    case olderThanSupported(found: ModelVersion, oldest: ModelVersion, Location)
    /// The version key is absent and the model treats that as an error.
    case missingVersion(key: String, Location)
    /// The stored version has no migration path to the current one.
    case noMigrationPath(from: ModelVersion, to: ModelVersion, Location)
    /// A migration step threw.
    case migrationFailed(step: String, underlying: any Error, Location)
    /// Reading or writing the file failed.
    case fileAccess(underlying: any Error, Location)

    /// Where an error happened: file, format, key path and (for text) line and column.
    public struct Location: Sendable, Hashable, CustomStringConvertible {
        /// The file read or written, if any.
        public var file: URL?
        /// The format's name, such as `"JSON"`, if known.
        public var format: String?
        /// The path inside the tree.
        public var keyPath: KeyValuePath
        /// The 1-based line in a text format, if known.
        public var line: Int?
        /// The 1-based column (in bytes) in a text format, if known.
        public var column: Int?
        /// The byte offset in the input, if known.
        public var offset: Int?

        /// A location; every part is optional.
        public init(
            file: URL? = nil, format: String? = nil, keyPath: KeyValuePath = KeyValuePath([]), line: Int? = nil,
            column: Int? = nil, offset: Int? = nil
        ) {
            self.file = file
            self.format = format
            self.keyPath = keyPath
            self.line = line
            self.column = column
            self.offset = offset
        }

        /// `"in settings.json (JSON) at line 3, column 7, at key path a.b[2]"`.
        public var description: String {
            var parts: [String] = []
            if let file {
                parts.append(
                    "in \(file.isFileURL ? file.path : file.absoluteString)" + (format.map { " (\($0))" } ?? ""))
            } else if let format {
                parts.append("in \(format)")
            }
            if let line, let column {
                parts.append("at line \(line), column \(column)")
            } else if let offset {
                parts.append("at byte \(offset)")
            }
            if !keyPath.components.isEmpty { parts.append("at key path \(keyPath)") }
            return parts.joined(separator: " ")
        }
    }

    /// Where the error happened.
    public var location: Location {
        get {
            switch self {
            case .malformed(_, let l), .invalidUTF8(let l), .numberOutOfRange(_, let l), .tooDeep(_, let l),
                .tooLarge(_, let l), .duplicateKey(_, let l), .typeMismatch(_, _, let l), .keyNotFound(_, let l),
                .valueNotFound(_, let l), .unsupportedValue(_, let l), .unknownFormat(let l),
                .newerVersion(_, _, let l), .olderThanSupported(_, _, let l), .missingVersion(_, let l),
                .noMigrationPath(_, _, let l),
                .migrationFailed(_, _, let l), .fileAccess(_, let l):
                l
            }
        }
        set {
            switch self {
            case .malformed(let a, _): self = .malformed(a, newValue)
            case .invalidUTF8: self = .invalidUTF8(newValue)
            case .numberOutOfRange(let a, _): self = .numberOutOfRange(a, newValue)
            case .tooDeep(let a, _): self = .tooDeep(limit: a, newValue)
            case .tooLarge(let a, _): self = .tooLarge(limit: a, newValue)
            case .duplicateKey(let a, _): self = .duplicateKey(a, newValue)
            case .typeMismatch(let a, let b, _): self = .typeMismatch(expected: a, found: b, newValue)
            case .keyNotFound(let a, _): self = .keyNotFound(a, newValue)
            case .valueNotFound(let a, _): self = .valueNotFound(expected: a, newValue)
            case .unsupportedValue(let a, _): self = .unsupportedValue(a, newValue)
            case .unknownFormat: self = .unknownFormat(newValue)
            case .newerVersion(let a, let b, _): self = .newerVersion(found: a, current: b, newValue)
            case .olderThanSupported(let a, let b, _): self = .olderThanSupported(found: a, oldest: b, newValue)
            case .missingVersion(let a, _): self = .missingVersion(key: a, newValue)
            case .noMigrationPath(let a, let b, _): self = .noMigrationPath(from: a, to: b, newValue)
            case .migrationFailed(let a, let b, _): self = .migrationFailed(step: a, underlying: b, newValue)
            case .fileAccess(let a, _): self = .fileAccess(underlying: a, newValue)
            }
        }
    }

    /// What went wrong and where, in one sentence.
    public var message: String {
        let whereText = location.description
        let suffix = whereText.isEmpty ? "." : " \(whereText)."
        switch self {
        case .malformed(let reason, _): return "Malformed data: \(reason)" + suffix
        case .invalidUTF8: return "Text is not valid UTF-8" + suffix
        case .numberOutOfRange(let number, _): return "Number \(number) is out of range" + suffix
        case .tooDeep(let limit, _): return "Nesting is deeper than \(limit) levels" + suffix
        case .tooLarge(let limit, _): return "Input is larger than the limit of \(limit)" + suffix
        case .duplicateKey(let key, _): return "Duplicate key \"\(key)\"" + suffix
        case .typeMismatch(let expected, let found, _): return "Expected \(expected) but found \(found)" + suffix
        case .keyNotFound(let key, _): return "Missing key \"\(key)\"" + suffix
        case .valueNotFound(let expected, _): return "Expected \(expected) but found no value" + suffix
        case .unsupportedValue(let what, _): return "Cannot represent \(what)" + suffix
        case .unknownFormat: return "The data is in no known format" + suffix
        case .newerVersion(let found, let current, _):
            return "Data has model version \(found), newer than the supported version \(current)" + suffix
        case .olderThanSupported(let found, let oldest, _):
            return "Data has model version \(found), older than the oldest supported version \(oldest)" + suffix
        case .missingVersion(let key, _): return "Missing model version under \"\(key)\"" + suffix
        case .noMigrationPath(let from, let to, _):
            return "No migration leads from model version \(from) to \(to)" + suffix
        case .migrationFailed(let step, let underlying, _):
            return "Migration \(step) failed" + (whereText.isEmpty ? "" : " \(whereText)")
                + ": \(underlying.userMessage)"
        case .fileAccess(let underlying, _):
            return "Could not access the file" + (whereText.isEmpty ? "" : " \(whereText)")
                + ": \(underlying.userMessage)"
        }
    }

    /// The error a migration or file access threw, if any.
    public var underlyingError: (any Error)? {
        switch self {
        case .migrationFailed(_, let underlying, _), .fileAccess(let underlying, _): underlying
        default: nil
        }
    }

    /// This error with the file and format filled in where they were not known yet.
    func located(file: URL? = nil, format: String? = nil) -> SerializationError {
        var copy = self
        if copy.location.file == nil, let file { copy.location.file = file }
        if copy.location.format == nil, let format { copy.location.format = format }
        return copy
    }

    /// This error with `prefix` put before its key path (for errors raised inside a subtree).
    func nested(under prefix: KeyValuePath) -> SerializationError {
        var copy = self
        copy.location.keyPath = KeyValuePath(prefix.components + copy.location.keyPath.components)
        return copy
    }
}
