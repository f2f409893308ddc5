import _KitSupport

/// Where a generated project gets the kit from.
public enum KitSource: Sendable, Equatable, Codable {
    /// A git URL and a version (`from:`).
    case url(String, version: String)
    /// A local checkout (offline use and the kit's own tests).
    case path(String)

    /// The SwiftPM package identity, which product references must name.
    var identity: String {
        let raw: String
        switch self {
        case .url(let url, _): raw = url
        case .path(let path): raw = path
        }
        var last = raw.split(separator: "/").last.map(String.init) ?? raw
        if last.hasSuffix(".git") { last.removeLast(4) }
        return last.lowercased()
    }

    /// The `.package(…)` line of a generated manifest.
    var packageLine: String {
        switch self {
        case .url(let url, let version):
            ".package(url: \(SwiftSource.literal(url)), from: \(SwiftSource.literal(version)))"
        case .path(let path): ".package(path: \(SwiftSource.literal(path)))"
        }
    }
}

/// The kinds of project `boiler new` makes.
public enum TemplateKind: String, Sendable, CaseIterable, Codable {
    /// A core library (model design, command, route, service on AppCore), an executable, tests.
    case app
    /// A command-line tool on swift-argument-parser and the kit.
    case cli
    /// A library package of your own on the kit.
    case library
    /// A Hummingbird 2 REST server on the kit: records in SQLite or PostgreSQL, problem details,
    /// graceful shutdown.
    case server

    /// One line for `boiler templates`.
    public var summary: String {
        switch self {
        case .app: "An app core (model design → generated models, a command, a route, a service) and an executable"
        case .cli: "A command-line tool on swift-argument-parser with a core library on the kit"
        case .library: "A library package of your own on the kit, with tests"
        case .server:
            "A Hummingbird 2 REST server: a model design, commands on a RecordStore (SQLite or PostgreSQL), routes, tests"
        }
    }
}

/// Where a server project keeps its records.
public enum DatabaseKind: String, Sendable, CaseIterable, Codable {
    /// A SQLite file (the default).
    case sqlite
    /// PostgreSQL at `DATABASE_URL`, or a SQLite file when it is not set.
    case postgres
}

/// Everything `boiler new` was told.
public struct ProjectOptions: Sendable {
    /// The project's name.
    public var name: ProjectName
    /// Which template.
    public var template: TemplateKind
    /// The kit products to depend on, or nil for the `Boilerplate` umbrella.
    public var packages: [String]?
    /// Where the kit comes from.
    public var kit: KitSource
    /// Extra template values from `--set key=value`.
    public var values: [String: String]
    /// Where a server keeps its records; nil takes SQLite, and only the server template takes one.
    public var database: DatabaseKind?
    /// Whether an app project has a resource added with `--synced`: its `Package.swift` then
    /// depends on the kit's `BoilerplateSync`. Not a `boiler new` flag: `boiler add resource` and
    /// `boiler update` set it from the project's record.
    public var synced = false

    /// Collects the options.
    public init(
        name: ProjectName, template: TemplateKind, packages: [String]?, kit: KitSource, values: [String: String] = [:],
        database: DatabaseKind? = nil
    ) {
        self.name = name
        self.template = template
        self.packages = packages
        self.kit = kit
        self.values = values
        self.database = database
    }

    /// The products the project depends on.
    var products: [String] { packages ?? ["Boilerplate"] }

    /// Whether sample code needing `module` can be included.
    func has(_ module: String) -> Bool { packages.map { $0.contains(module) } ?? true }
}
