import Foundation

/// How ``ModelGenerator`` renders and writes: access level, imports, conformances, templates.
public struct GenerationOptions: Sendable, Hashable {
    /// The access level of generated declarations: `"public"` (the default), `"package"`,
    /// `"internal"` or `""` (no modifier).
    public var accessLevel: String
    /// Modules every machine file imports besides Foundation and those the design names.
    public var imports: [String]
    /// Protocols every generated type conforms to besides `Codable`, `Sendable` and `Hashable`.
    public var conformances: [String]
    /// A folder whose `.mustache` files replace the bundled templates of the same name.
    public var templateDirectory: URL?
    /// Values templates read as `{{vars.key}}`.
    public var templateVariables: [String: String]
    /// Whether to create missing human files (`Entity.swift`); existing ones are never touched.
    public var createsHumanFiles: Bool
    /// Where human files go; nil puts them beside the machine files.
    public var humanDirectory: URL?
    /// When set, all machine code goes into one file of this name (for build-tool plugins,
    /// which must name their outputs before the design is read).
    public var singleFileName: String?
    /// Whether to remove machine files whose entity is gone (human files are never removed).
    public var prunesOrphans: Bool
    /// Whether to report what would change without writing anything.
    public var isDryRun: Bool
    /// Whether to overwrite a file ModelGen did not write and to prune orphans that were edited
    /// since it wrote them; without it, either is a ``ModelGenError`` and nothing is written.
    public var force: Bool
    /// Whether every struct entity with a stored `id` attribute also conforms to Storage's
    /// `QueryableRecord` (and `Identifiable`), so a `RecordStore` can filter and sort on its
    /// attributes; its machine file then imports Storage. An entity's `boiler.queryable` user-info
    /// key overrides this either way. Off by default: generated code needs only Foundation.
    public var queryable: Bool

    /// Creates options; the defaults generate public types and create missing human files.
    public init(
        accessLevel: String = "public", imports: [String] = [], conformances: [String] = [],
        templateDirectory: URL? = nil, templateVariables: [String: String] = [:], createsHumanFiles: Bool = true,
        humanDirectory: URL? = nil, singleFileName: String? = nil, prunesOrphans: Bool = false, isDryRun: Bool = false,
        force: Bool = false, queryable: Bool = false
    ) {
        self.accessLevel = accessLevel
        self.imports = imports
        self.conformances = conformances
        self.templateDirectory = templateDirectory
        self.templateVariables = templateVariables
        self.createsHumanFiles = createsHumanFiles
        self.humanDirectory = humanDirectory
        self.singleFileName = singleFileName
        self.prunesOrphans = prunesOrphans
        self.isDryRun = isDryRun
        self.force = force
        self.queryable = queryable
    }

    /// Parses `key=value` template variables as given on a command line.
    /// - Throws: ``ModelGenError/invalidOption(option:reason:)`` for an item without `=` or key.
    public static func templateVariables(from items: [String]) throws -> [String: String] {
        var result: [String: String] = [:]
        for item in items {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw ModelGenError.invalidOption(option: "--template-var \(item)", reason: "expected key=value")
            }
            result[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        return result
    }

    /// Checks the options before anything is rendered.
    func validate() throws {
        guard ["public", "package", "internal", "fileprivate", ""].contains(accessLevel) else {
            throw ModelGenError.invalidOption(
                option: "access level '\(accessLevel)'", reason: "expected public, package, internal or empty")
        }
        for name in imports where !SwiftNames.isQualifiedName(name) {
            throw ModelGenError.invalidOption(
                option: "--import \(SwiftNames.commentText(name))", reason: "not a module name")
        }
        for name in conformances where !SwiftNames.isQualifiedName(name) {
            throw ModelGenError.invalidOption(
                option: "--conformance \(SwiftNames.commentText(name))", reason: "not a protocol name")
        }
        if let single = singleFileName,
            !GenerationManifest.isPlainFileName(single) || single == GenerationManifest.fileName
        {
            throw ModelGenError.invalidOption(
                option: "--single-file \(single)", reason: "expected a file name without a folder")
        }
    }
}
