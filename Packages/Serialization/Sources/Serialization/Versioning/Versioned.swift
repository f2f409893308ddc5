/// A model that stamps its version into its data and migrates older data before decoding.
///
/// ```swift
/// struct Company: Codable, Versioned {
///     static let version = 3
///     static let migrations = [
///         Migration(from: 1) { try $0.rename("name", to: "title") },
///         Migration(from: 2) { $0["founded"] = .int(1990) },
///     ]
///     var title: String; var founded: Int
/// }
/// ```
///
/// Encoding writes ``version`` under ``versionKey`` (`"model_version"` by default). Decoding
/// reads the stored version, runs the migrations from it to ``version`` on the raw tree, then
/// decodes: one parse. Nested `Versioned` values carry and migrate their own versions. See
/// <doc:VersioningAndMigration>.
public protocol Versioned {
    /// `Int` or `String`.
    associatedtype Version: ModelVersionRepresentable

    /// The version this program writes and reads.
    static var version: Version { get }
    /// The key the version is stored under; `"model_version"` by default.
    static var versionKey: String { get }
    /// The steps from older versions, oldest first; none by default.
    static var migrations: [Migration] { get }
    /// What data without a version key means; ``MissingVersionPolicy/oldest`` by default.
    static var missingVersion: MissingVersionPolicy { get }
    /// The oldest version whose data this program reads, when it reads none older: data stamped
    /// older is refused with ``SerializationError/olderThanSupported(found:oldest:_:)``, whatever
    /// steps ``migrations`` holds. `nil` (the default): any version a chain of steps leads from.
    static var oldestStoredVersion: Version? { get }
}

extension Versioned {
    /// `"model_version"`.
    public static var versionKey: String { "model_version" }
    /// No migrations.
    public static var migrations: [Migration] { [] }
    /// ``MissingVersionPolicy/oldest``: data from before the model was versioned.
    public static var missingVersion: MissingVersionPolicy { .oldest }
    /// `nil`: no version is refused for its age alone.
    public static var oldestStoredVersion: Version? { nil }
}

/// What a ``Versioned`` model makes of data that has no version key.
public enum MissingVersionPolicy: Sendable, Hashable {
    /// The data predates versioning: it is the model's ``Versioned/oldestStoredVersion`` when
    /// it has one, else the oldest version the migrations know (the first step's `from`), or
    /// the current version when there are no migrations.
    case oldest
    /// The data is of the current version; no migration runs.
    case current
    /// The data is of this version.
    case assume(ModelVersion)
    /// Missing versions are a ``SerializationError/missingVersion(key:_:)`` error.
    case reject
}

extension Versioned {
    /// `tree`, a value of this model as stored, brought to the current ``version``: the step the
    /// decoder runs before decoding, for code that works on trees (merging saved data over
    /// defaults, say) rather than on decoded values.
    ///
    /// ```swift
    /// let current = try Company.migrated(JSONFormat().tree(from: savedData))
    /// ```
    ///
    /// The result carries the current version under ``versionKey``. A tree already at the
    /// current version comes back unchanged. Nested `Versioned` values are left alone: the
    /// decoder migrates them as it reaches them.
    /// - Throws: ``SerializationError`` when `tree` is not an object, its version is newer than
    ///   this program's or older than its ``oldestStoredVersion``, no chain of migrations leads from it, a step fails, or the version is
    ///   missing under ``MissingVersionPolicy/reject``.
    public static func migrated(_ tree: KeyValue) throws(SerializationError) -> KeyValue {
        try Migrator.migrate(tree, to: Self.self, at: .root)
    }
}
