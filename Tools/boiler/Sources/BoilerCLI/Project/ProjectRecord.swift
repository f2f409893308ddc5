import Foundation

/// `.boiler.json`: how a project was made, so later commands (`boiler add`, `boiler update`) can
/// extend it and tell the files they generated from the files people wrote.
///
/// What boiler wrote is kept beside it, under `.boiler/base/` (``ProjectBase``): the base of a
/// three-way merge when `boiler update` brings newer templates. A record made before that
/// (no ``templateVersion``) still reads; `boiler update --adopt` gives it a base.
public struct ProjectRecord: Codable, Sendable, Equatable {
    /// The record's file name at the project root.
    public static let fileName = ".boiler.json"

    /// The version of boiler that made the project.
    public var boilerVersion: String
    /// The name as typed.
    public var name: String
    /// The module name derived from it.
    public var module: String
    /// The template used.
    public var template: TemplateKind
    /// The kit products depended on; nil for the umbrella.
    public var packages: [String]?
    /// Where the kit comes from.
    public var kit: KitSource
    /// The `--set` answers.
    public var values: [String: String]
    /// A server's database (`--database`); nil for other templates.
    public var database: DatabaseKind?
    /// The routes and services `boiler add` has wired into an app.
    public struct Parts: Codable, Sendable, Equatable {
        /// Route names, in the order they were added.
        public var routes: [String] = []
        /// Service names, in the order they were added.
        public var services: [String] = []
        /// Command names, in the order they were added; nil in records made before they were kept.
        public var commands: [String]?
        /// Model names, in the order they were added; nil in records made before they were kept.
        public var models: [String]?
    }

    /// What `boiler add` has wired in; nil until the first route or service.
    public var parts: Parts?
    /// The resources `boiler add resource` has added, in the order they were added; nil until the first.
    public var resources: [ResourceSpec]?
    /// Each generated file's path and a hash of the contents boiler wrote (FNV-1a, 64-bit hex).
    public var files: [String: String]
    /// The version of boiler's templates the project's files were last rendered from (by `new`,
    /// `add` or `update`); nil for a project made before boiler kept a base (see `update --adopt`).
    public var templateVersion: String?
    /// The template version of each generated file's base; nil with ``templateVersion``.
    public var fileVersions: [String: String]?

    /// The largest `.boiler.json` boiler reads: a record lists paths and hashes, a few kilobytes
    /// for the largest template; a file far larger was not written by boiler.
    public static let maximumSize = 1 << 20

    init(options: ProjectOptions, files: [PlannedFile]) {
        boilerVersion = KitVersion.current
        name = options.name.original
        module = options.name.module
        template = options.template
        packages = options.packages
        kit = options.kit
        values = options.values
        database = options.template == .server ? options.database ?? .sqlite : nil
        self.files = Dictionary(uniqueKeysWithValues: files.map { ($0.path, Self.hash($0.contents)) })
    }

    /// The record as stable, pretty JSON.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads the record of the project in `folder`.
    /// - Throws: ``BoilerError/notAProject(folder:)`` when there is none or it is unreadable.
    public static func read(in folder: URL) throws(BoilerError) -> ProjectRecord {
        let url = folder.appendingPathComponent(fileName)
        // An update that stopped after its commit point must be finished before anything reads
        // the record: until then the files are half old and half new.
        if FileManager.default.fileExists(atPath: UpdateTransaction.journal(in: folder).path) {
            throw .updateInterrupted(folder: folder.path)
        }
        // The size first: a 10 MB "record" is refused without being read into memory.
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int ?? 0
        if size > maximumSize {
            throw .invalidRecord(
                path: url.path, field: "(the whole file)",
                reason: "is \(size) bytes, more than the \(maximumSize) a record made by boiler can be")
        }
        try ProjectPaths.checkInside(fileName, root: folder)
        guard let data = try? Data(contentsOf: url) else { throw .notAProject(folder: folder.path) }
        do {
            return try JSONDecoder().decode(ProjectRecord.self, from: data)
        } catch {
            throw .invalidOption("project", value: url.path, expected: "a readable .boiler.json (\(error.userMessage))")
        }
    }

    /// Checks every value of the record that `boiler add` turns into a path or into Swift
    /// source: the module and part names must be the module names `boiler new` derives, the
    /// packages kit products, and every file a relative path inside the project.
    /// - Parameter path: The record's path, for the error.
    /// - Throws: ``BoilerError/invalidRecord(path:field:reason:)`` naming the field.
    func validate(path: String) throws(BoilerError) {
        func moduleName(_ field: String, _ value: String) throws(BoilerError) {
            // Up to a file name's 255 bytes: names made before the 64-character limit stay valid.
            guard (try? ProjectName(value, maximumLength: 255))?.module == value else {
                throw .invalidRecord(
                    path: path, field: field,
                    reason: "is \(BoilerError.shown(value)), which is not a module name boiler makes "
                        + "(ASCII letters and digits, starting with an upper-case letter)")
            }
        }
        try moduleName("module", module)
        for route in parts?.routes ?? [] { try moduleName("parts.routes", route) }
        for service in parts?.services ?? [] { try moduleName("parts.services", service) }
        for command in parts?.commands ?? [] { try moduleName("parts.commands", command) }
        for model in parts?.models ?? [] { try moduleName("parts.models", model) }
        for resource in resources ?? [] {
            do {
                _ = try ResourceSpec(name: resource.name, fields: resource.fields.map(\.argument))
            } catch {
                throw .invalidRecord(
                    path: path, field: "resources",
                    reason: "lists \(BoilerError.shown(resource.name)), which boiler add resource would refuse: "
                        + error.message)
            }
        }
        if template != .app, let resource = (resources ?? []).first(where: \.isSynced) {
            throw .invalidRecord(
                path: path, field: "resources",
                reason:
                    "marks \(BoilerError.shown(resource.name)) as synced, which only an app project's resource may be")
        }
        for package in packages ?? [] where !ReservedNames.kitProducts.contains(package) {
            throw .invalidRecord(
                path: path, field: "packages", reason: "lists \(package.debugDescription), which is not a kit product")
        }
        for file in files.keys.sorted() where !ProjectPaths.isSafeRelative(file) {
            throw .invalidRecord(
                path: path, field: "files",
                reason: "names \(file.debugDescription), which is not a relative path inside the project")
        }
        for (file, version) in (fileVersions ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard files[file] != nil else {
                throw .invalidRecord(
                    path: path, field: "fileVersions",
                    reason: "names \(BoilerError.shown(file)), which is not among the files boiler wrote")
            }
            try Self.checkVersion(version, field: "fileVersions", path: path)
        }
        if let templateVersion { try Self.checkVersion(templateVersion, field: "templateVersion", path: path) }
    }

    /// A version is a short line of letters, digits, `.`, `-` and `+` (it is printed, never run).
    static func checkVersion(_ version: String, field: String, path: String) throws(BoilerError) {
        let allowed =
            version.utf8.count <= 64 && !version.isEmpty
            && version.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-+".contains($0)) }
        guard allowed else {
            throw .invalidRecord(
                path: path, field: field, reason: "is \(BoilerError.shown(version)), which is not a version")
        }
    }

    static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
