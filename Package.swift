// swift-tools-version: 6.0
// The manifest users depend on by URL. Every module is declared once, in `modules` below;
// targets, test targets and products are derived from that list, so adding a package is one
// line. Each `Packages/<Name>/Package.swift` declares the same package standalone; the check
// `Tools/Scripts/check-manifests.py` (run by `make test`) keeps the two in agreement.
import PackageDescription

/// A dependency of a module: a sibling module of this repository or a product of a package.
enum Dep {
    case module(String)
    case product(String, package: String)

    var target: Target.Dependency {
        switch self {
        case .module(let name): .target(name: name)
        case .product(let name, let package): .product(name: name, package: package)
        }
    }
}

/// One module of the kit and where it lives.
struct Module {
    enum Kind { case library, executable }
    let name: String
    /// Folder under which `Sources/<name>` and `Tests/<name>Tests` live.
    let home: String
    var kind: Kind = .library
    var dependencies: [Dep] = []
    var testDependencies: [Dep] = []
    var hasTests = true
    var resources: [Resource]? = nil
    /// Files in the test folder that are not sources (golden files read at run time).
    var testExclude: [String] = []
    /// Plugins of this package the test target uses (ModelGen's build plugin for a model design).
    var testPlugins: [String] = []
    /// Whether users see it as a product; tools and test helpers are internal.
    var isProduct = true
}

func package(
    _ name: String, _ dependencies: [Dep] = [], tests: [Dep] = [], resources: [Resource]? = nil,
    testExclude: [String] = []
) -> Module {
    Module(
        name: name, home: "Packages/\(name)", dependencies: dependencies, testDependencies: tests,
        resources: resources, testExclude: testExclude)
}

/// An executable inside a package that users do not depend on (a plugin's tool, a test's child process).
func tool(_ name: String, in package: String, _ dependencies: [Dep]) -> Module {
    Module(
        name: name, home: "Packages/\(package)", kind: .executable, dependencies: dependencies, hasTests: false,
        isProduct: false)
}

func addOn(_ name: String, in package: String, _ dependencies: [Dep], tests: [Dep] = []) -> Module {
    Module(name: name, home: "Packages/\(package)", dependencies: dependencies, testDependencies: tests)
}

let yams = Dep.product("Yams", package: "Yams")
let propertyBased = Dep.product("PropertyBased", package: "swift-property-based")
let mustache = Dep.product("Mustache", package: "swift-mustache")
let argumentParser = Dep.product("ArgumentParser", package: "swift-argument-parser")
let grdb = Dep.product("GRDB", package: "GRDB.swift")
/// The SQLite C API GRDB links, for reading a column's bytes in place.
let grdbSQLite = Dep.product("GRDBSQLite", package: "GRDB.swift")
let flyingFox = Dep.product("FlyingFox", package: "FlyingFox")
let postgresNIO = Dep.product("PostgresNIO", package: "postgres-nio")
let asyncHTTPClient = Dep.product("AsyncHTTPClient", package: "async-http-client")
/// The NIO modules the AsyncHTTPClient transport names in its code (ByteBuffer, HTTPHeaders):
/// declared, not borrowed through AsyncHTTPClient.
let nio = [Dep.product("NIOCore", package: "swift-nio"), Dep.product("NIOHTTP1", package: "swift-nio")]
let logging = Dep.product("Logging", package: "swift-log")
let serviceLifecycle = Dep.product("ServiceLifecycle", package: "swift-service-lifecycle")
/// The HTTP server of the sync protocol's routes, the version the server template uses.
let hummingbird = Dep.product("Hummingbird", package: "hummingbird")
let hummingbirdTesting = Dep.product("HummingbirdTesting", package: "hummingbird")
/// The header field names the sync routes define (Hummingbird re-exports only `HTTPFields`).
let httpTypes = Dep.product("HTTPTypes", package: "swift-http-types")
/// SHA-256 for the sync routes' request fingerprints (already built for postgres-nio).
let crypto = Dep.product("Crypto", package: "swift-crypto")
/// Raw TCP for tests that send bytes an HTTP client refuses to (a newline inside a header).
let nioPosix = Dep.product("NIOPosix", package: "swift-nio")

let kit = [
    "Errors", "Operations", "Commands", "EventBus", "Router", "Serialization", "ModelGen", "Storage", "Networking",
]

/// The kit's internal plumbing (one lock, the deadline, the text display, literal escaping): a
/// plain target here, never a product users see; `Packages/Support` makes it an underscored
/// product only so that the nested manifests can depend on it.
let support = Dep.module("_KitSupport")

let modules: [Module] = [
    Module(name: "_KitSupport", home: "Packages/Support", isProduct: false),
    package("Errors"),
    package("Operations", [.module("Errors"), support], tests: [.module("Errors"), support]),
    package("Commands", [.module("Errors"), support], tests: [.module("Errors"), support]),
    addOn(
        "CommandsTesting", in: "Commands", [.module("Commands"), support],
        tests: [.module("Commands"), .module("Errors"), support]),
    package("EventBus", [support], tests: [support]),
    package("Router", [.module("Errors")]),
    package("Serialization", [.module("Errors")], tests: [.module("SerializationYAML"), propertyBased]),
    addOn(
        "SerializationYAML", in: "Serialization", [.module("Serialization"), yams], tests: [.module("Serialization")]),
    package(
        "ModelGen", [.module("Errors"), support, yams, mustache], tests: [.module("Serialization"), propertyBased],
        resources: [.copy("Templates")], testExclude: ["Golden"]),
    tool("modelgen", in: "ModelGen", [.module("ModelGen")]),
    package(
        "Storage", [.module("Errors"), .module("Serialization"), support],
        tests: [.module("Serialization"), .module("StorageCrashProbe")]),
    tool("StorageCrashProbe", in: "Storage", [.module("Storage")]),
    addOn(
        "StorageSQLite", in: "Storage", [.module("Storage"), grdb, grdbSQLite],
        tests: [.module("Serialization"), .module("Storage"), grdb]),
    addOn(
        "StoragePostgres", in: "Storage", [.module("Errors"), .module("Storage"), support, postgresNIO],
        tests: [
            .module("Serialization"), .module("Storage"), .module("StorageSQLite"), .module("StoragePostgresProbe"),
            .module("StoragePostgresTesting"), propertyBased, postgresNIO,
        ]),
    // A real PostgreSQL server per test (initdb + postgres on 127.0.0.1), for our tests and users'.
    addOn(
        "StoragePostgresTesting", in: "Storage", [], tests: [.module("Storage"), .module("StoragePostgres")]),
    tool(
        "StoragePostgresProbe", in: "Storage",
        [.module("Storage"), .module("StoragePostgres"), .module("StorageSQLite")]),
    // The sync protocol's server routes (Hummingbird), over a RecordStore's change feed and receipts.
    addOn(
        "StorageSyncServer", in: "Storage",
        [.module("Errors"), .module("Storage"), support, hummingbird, httpTypes, crypto],
        tests: [
            .module("Storage"), .module("StorageSQLite"), .module("StoragePostgres"), .module("StoragePostgresTesting"),
            .module("StorageSyncServerProbe"), hummingbird, hummingbirdTesting, httpTypes, serviceLifecycle, logging,
            nio[0], nioPosix,
        ]),
    // The sync server a test kills between a write's commit and its response.
    tool(
        "StorageSyncServerProbe", in: "Storage",
        [
            .module("Storage"), .module("StorageSQLite"), .module("StoragePostgres"), .module("StorageSyncServer"),
            hummingbird,
        ]),
    package(
        "Networking", [.module("Errors"), .module("Serialization"), support],
        tests: [.module("Serialization"), .module("NetworkingTesting"), support, flyingFox]),
    addOn(
        "NetworkingAsyncHTTPClient", in: "Networking", [.module("Networking"), asyncHTTPClient] + nio,
        tests: [.module("Networking"), .module("NetworkingTesting"), support, flyingFox]),
    addOn(
        "NetworkingTesting", in: "Networking", [.module("Networking"), support, flyingFox],
        tests: [.module("Networking"), flyingFox]),
    // The umbrella carries what apps run: every package but ModelGen, which reaches apps through
    // its build plugin and `boiler` (and would link Yams and Mustache into every app).
    Module(
        name: "Boilerplate", home: "Umbrella",
        dependencies: kit.filter { $0 != "ModelGen" }.map { .module($0) } + [support],
        testDependencies: [
            .module("NetworkingTesting"), .module("CommandsTesting"), .module("AppCoreCrashProbe"),
            .module("ServicesProbe"), .module("Serialization"), support,
        ],
        testExclude: ["Designs"], testPlugins: ["ModelGenPlugin"]),
    // The child process of the umbrella's crash test; the test finds it beside itself.
    Module(
        name: "AppCoreCrashProbe", home: "Umbrella", kind: .executable, dependencies: [.module("Boilerplate")],
        hasTests: false, isProduct: false),
    // The umbrella's add-ons for servers, apart so that apps linking the umbrella do not link
    // swift-log or swift-service-lifecycle.
    Module(
        name: "BoilerplateLogging", home: "Umbrella", dependencies: [.module("Boilerplate"), logging],
        testDependencies: [.module("Boilerplate"), logging]),
    Module(
        name: "BoilerplateServiceLifecycle", home: "Umbrella",
        dependencies: [.module("Boilerplate"), serviceLifecycle, logging],
        testDependencies: [.module("Boilerplate"), serviceLifecycle, logging]),
    // The client side of the sync protocol: a synced RecordStore on SQLite (records and outbox in
    // one transaction) and the engine that pushes the outbox and pulls the server's change feed.
    // In the root package so it can use StorageSQLite's `package` write hook.
    Module(
        name: "BoilerplateSync", home: "Umbrella",
        dependencies: [
            .module("Errors"), .module("Serialization"), .module("Storage"), .module("StorageSQLite"),
            .module("Networking"), support, grdb,
        ],
        testDependencies: [
            .module("Errors"), .module("Serialization"), .module("Storage"), .module("StorageSQLite"),
            .module("StoragePostgres"), .module("StoragePostgresTesting"), .module("StorageSyncServer"),
            .module("Networking"), hummingbird, httpTypes, serviceLifecycle, logging, grdb, nio[0],
            .module("NetworkingTesting"), .module("SyncClientProbe"), propertyBased,
        ]),
    // The child process of BoilerplateSync's kill tests (SIGKILLed mid-sync); the tests find it
    // beside themselves.
    Module(
        name: "SyncClientProbe", home: "Umbrella", kind: .executable,
        dependencies: [
            .module("BoilerplateSync"), .module("Networking"), .module("Serialization"), .module("Storage"),
        ],
        hasTests: false, isProduct: false),
    // The child process of the umbrella's signal tests (SIGTERM/SIGINT → graceful shutdown).
    Module(
        name: "ServicesProbe", home: "Umbrella", kind: .executable, dependencies: [.module("Boilerplate")],
        hasTests: false, isProduct: false),
    Module(
        name: "BoilerCLI", home: "Tools/boiler",
        dependencies: [.module("Errors"), .module("ModelGen"), support, argumentParser, mustache],
        testDependencies: [propertyBased],
        // The template files `boiler new` and `boiler add` render (Templates/Files/<template>/…).
        resources: [.copy("Templates/Files")],
        // boiler's code, not a library: only the `boiler` executable and the tests use it.
        isProduct: false),
    Module(
        name: "boiler", home: "Tools/boiler", kind: .executable, dependencies: [.module("BoilerCLI")], hasTests: false),
]

/// SwiftPM plugins: ModelGen's build-tool plugin and its `generate-models` command.
struct Plugin {
    let name: String
    let home: String
    let capability: Target.PluginCapability
    let tools: [String]
}

let plugins: [Plugin] = [
    Plugin(name: "ModelGenPlugin", home: "Packages/ModelGen", capability: .buildTool(), tools: ["modelgen"]),
    Plugin(
        name: "GenerateModels", home: "Packages/ModelGen",
        capability: .command(
            intent: .custom(
                verb: "generate-models",
                description: "Generate Swift models from the model designs in the package's targets"),
            permissions: [.writeToPackageDirectory(reason: "Writes machine files and creates missing human files")]),
        tools: ["modelgen"]),
]

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "Boilerplate",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: modules.filter(\.isProduct).map { module in
        switch module.kind {
        case .library: .library(name: module.name, targets: [module.name])
        case .executable: .executable(name: module.name, targets: [module.name])
        }
    } + plugins.map { .plugin(name: $0.name, targets: [$0.name]) },
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // End-to-end tests of the CLI: they run the built `boiler` and build what it generates.
        .testTarget(
            name: "EndToEndTests", dependencies: [.target(name: "boiler")], path: "Tests/EndToEndTests",
            swiftSettings: swiftSettings)
    ]
        + plugins.map { plugin in
            .plugin(
                name: plugin.name, capability: plugin.capability, dependencies: plugin.tools.map { .target(name: $0) },
                path: "\(plugin.home)/Plugins/\(plugin.name)")
        }
        + modules.flatMap { module -> [Target] in
            let source: Target
            switch module.kind {
            case .library:
                source = .target(
                    name: module.name, dependencies: module.dependencies.map(\.target),
                    path: "\(module.home)/Sources/\(module.name)", resources: module.resources,
                    swiftSettings: swiftSettings)
            case .executable:
                source = .executableTarget(
                    name: module.name, dependencies: module.dependencies.map(\.target),
                    path: "\(module.home)/Sources/\(module.name)", swiftSettings: swiftSettings)
            }
            guard module.hasTests else { return [source] }
            let tests = Target.testTarget(
                name: "\(module.name)Tests",
                dependencies: [.target(name: module.name)] + module.testDependencies.map(\.target),
                path: "\(module.home)/Tests/\(module.name)Tests", exclude: module.testExclude,
                swiftSettings: swiftSettings, plugins: module.testPlugins.map { .plugin(name: $0) })
            return [source, tests]
        }
)
