import Foundation

// Generated from the files of a server project that was built and tested; keep the two in step.

/// `boiler new --template server`: a Hummingbird 2 server whose domain runs through the kit. A
/// model design generates `Note`; commands change notes through a `RecordStore` (SQLite, or
/// PostgreSQL with `--database postgres`) and announce them on the bus; REST routes serve the
/// resource with paging and filters answered by the database, and errors as problem details
/// (RFC 9457). The executable runs the server and the kit's services in one swift-service-lifecycle
/// `ServiceGroup` (graceful shutdown on SIGTERM/SIGINT) and logs through swift-log.
enum ServerTemplate {
    static func files(for options: ProjectOptions) -> [PlannedFile] {
        let postgres = options.database == .postgres
        return [
            PlannedFile("Package.swift", manifest(postgres: postgres)),
            PlannedFile(
                "Sources/{{Name}}Core/Designs/Model.xcdatamodeld/Model.xcdatamodel/contents", AppTemplate.design),
            PlannedFile("Sources/{{Name}}Core/{{Name}}Database.swift", postgres ? postgresDatabase : sqliteDatabase),
            PlannedFile("Sources/{{Name}}Core/Model/Note.swift", noteHumanFile),
            PlannedFile("Sources/{{Name}}Core/Model/{{Name}}Error.swift", domainError),
            PlannedFile("Sources/{{Name}}Core/Model/NoteEvents.swift", noteEvents),
            PlannedFile("Sources/{{Name}}Core/Commands/NoteCommands.swift", noteCommands),
            PlannedFile("Sources/{{Name}}Core/NoteDomain.swift", noteDomain),
            PlannedFile("Sources/{{Name}}Core/HTTP/ProblemDetails.swift", problemDetails),
            PlannedFile("Sources/{{Name}}Core/HTTP/NoteRoutes.swift", noteRoutes),
            PlannedFile("Sources/{{Name}}Core/Services/NoteActivityLog.swift", activityLog),
            PlannedFile("Sources/{{Name}}Core/{{Name}}Server.swift", serverFactory),
            ResourceTemplates.serverWiring(module: "{{Name}}", resources: []),
            ServerPartTemplates.parts(module: "{{Name}}", routes: [], services: []),
            PlannedFile("Sources/{{Name}}/main.swift", executable),
            PlannedFile("Tests/{{Name}}CoreTests/TestServer.swift", testServer),
            PlannedFile("Tests/{{Name}}CoreTests/NoteRoutesTests.swift", noteRoutesTests),
            PlannedFile("Tests/{{Name}}CoreTests/ProblemResponseTests.swift", problemResponseTests),
            PlannedFile("Tests/{{Name}}CoreTests/NoteCommandTests.swift", noteCommandTests),
        ] + (postgres ? [PlannedFile("Tests/{{Name}}CoreTests/PostgresRoutesTests.swift", postgresRoutesTests)] : [])
    }

    /// The manifest; a PostgreSQL project also depends on the kit's `StoragePostgres` add-on, and
    /// its tests on `StoragePostgresTesting`, which starts a real PostgreSQL per test.
    static func manifest(postgres: Bool) -> String {
        let product =
            postgres ? "\n                .product(name: \"StoragePostgres\", package: \"{{kitIdentity}}\")," : ""
        let testProduct =
            postgres
            ? ",\n                .product(name: \"StoragePostgresTesting\", package: \"{{kitIdentity}}\"),"
            : ""
        return manifestText.replacingOccurrences(of: "{{postgresProduct}}", with: product)
            .replacingOccurrences(of: "{{postgresTestProduct}}", with: testProduct)
    }

    static let manifestText = """
        // swift-tools-version: {{swiftTools}}
        import PackageDescription

        let package = Package(
            name: "{{Name}}",
            platforms: [.macOS(.v14)],
            products: [
                .executable(name: "{{Name}}", targets: ["{{Name}}"])
            ],
            dependencies: [
                {{kitPackage}},
                .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
                .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
                .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
            ],
            targets: [
                // The model design in Sources/{{Name}}Core/Designs becomes Swift types at build time.
                .target(
                    name: "{{Name}}Core",
                    dependencies: [
                        .product(name: "Boilerplate", package: "{{kitIdentity}}"),
                        .product(name: "BoilerplateLogging", package: "{{kitIdentity}}"),
                        .product(name: "StorageSQLite", package: "{{kitIdentity}}"),{{postgresProduct}}
                        .product(name: "Hummingbird", package: "hummingbird"),
                        .product(name: "Logging", package: "swift-log"),
                    ],
                    exclude: ["Designs"],
                    plugins: [.plugin(name: "ModelGenPlugin", package: "{{kitIdentity}}")]
                ),
                .executableTarget(
                    name: "{{Name}}",
                    dependencies: [
                        "{{Name}}Core",
                        .product(name: "BoilerplateServiceLifecycle", package: "{{kitIdentity}}"),
                        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                    ]
                ),
                .testTarget(
                    name: "{{Name}}CoreTests",
                    dependencies: [
                        "{{Name}}Core", .product(name: "HummingbirdTesting", package: "hummingbird"){{postgresTestProduct}}
                    ]
                ),
            ]
        )

        """

    static let sqliteDatabase = """
        import Boilerplate
        import Foundation
        import StorageSQLite

        /// The database {{Name}} keeps its notes in: a SQLite file.
        public struct {{Name}}Database: Sendable {
            /// Where the database is.
            public enum Location: Sendable, Equatable {
                /// A SQLite file.
                case sqlite(URL)

                /// `DATABASE_PATH`, default `{{name}}.sqlite` in the working folder.
                public init(environment: [String: String]) throws({{Name}}Error) {
                    let path = environment["DATABASE_PATH"] ?? "{{name}}.sqlite"
                    guard !path.isEmpty else { throw .invalidField("DATABASE_PATH", reason: "must not be empty") }
                    self = .sqlite(URL(fileURLWithPath: path))
                }
            }

            /// The notes.
            public let records: RecordStore<Note>
            /// Where the database is, for the stores of other resources.
            public let location: Location

            /// Opens the database, creating the file and its table when missing.
            public static func open(_ location: Location) async throws -> {{Name}}Database {
                switch location {
                case .sqlite(let url):
                    {{Name}}Database(records: try RecordStore(sqlite: url, table: "notes"), location: location)
                }
            }

            /// The records of another resource, in their own table of this database (created when
            /// missing): how `boiler add resource` gives each resource its store.
            public func store<Record: QueryableRecord>(of type: Record.Type, table: String) async throws -> RecordStore<Record> {
                switch location {
                case .sqlite(let url): try RecordStore(sqlite: url, table: table)
                }
            }

            /// Closes the database; SQLite needs nothing more than letting go of it.
            public func close() async throws {}
        }

        """

    static let postgresDatabase = """
        import Boilerplate
        import Foundation
        import StoragePostgres
        import StorageSQLite

        /// The database {{Name}} keeps its notes in: PostgreSQL when `DATABASE_URL` is set, else a
        /// SQLite file (handy for development and the tests).
        public struct {{Name}}Database: Sendable {
            /// Where the database is.
            public enum Location: Sendable, Equatable {
                /// A SQLite file.
                case sqlite(URL)
                /// A PostgreSQL database: `postgres://user:password@host:5432/database`.
                case postgres(URL)

                /// `DATABASE_URL` (PostgreSQL) when set, else `DATABASE_PATH` (SQLite, default `{{name}}.sqlite`).
                public init(environment: [String: String]) throws({{Name}}Error) {
                    if let text = environment["DATABASE_URL"] {
                        guard let url = URL(string: text), url.scheme == "postgres" || url.scheme == "postgresql" else {
                            throw .invalidField(
                                "DATABASE_URL", reason: "must be a postgres://user:password@host:port/database URL")
                        }
                        self = .postgres(url)
                        return
                    }
                    let path = environment["DATABASE_PATH"] ?? "{{name}}.sqlite"
                    guard !path.isEmpty else { throw .invalidField("DATABASE_PATH", reason: "must not be empty") }
                    self = .sqlite(URL(fileURLWithPath: path))
                }
            }

            /// The notes.
            public let records: RecordStore<Note>
            /// Where the database is, for the stores of other resources.
            public let location: Location
            private let connections = Connections()

            /// Opens the database, creating its table when missing.
            public static func open(_ location: Location) async throws -> {{Name}}Database {
                let database: {{Name}}Database
                switch location {
                case .sqlite(let url):
                    database = {{Name}}Database(records: try RecordStore(sqlite: url, table: "notes"), location: location)
                case .postgres(let url):
                    let backend = try await PostgresRecordBackend<Note>(url: url, table: "notes")
                    database = {{Name}}Database(records: RecordStore(backend: backend), location: location)
                    database.connections.add { try await backend.shutdown() }
                }
                return database
            }

            /// The records of another resource, in their own table of this database (created when
            /// missing): how `boiler add resource` gives each resource its store.
            public func store<Record: QueryableRecord>(of type: Record.Type, table: String) async throws -> RecordStore<Record> {
                switch location {
                case .sqlite(let url):
                    return try RecordStore(sqlite: url, table: table)
                case .postgres(let url):
                    let backend = try await PostgresRecordBackend<Record>(url: url, table: table)
                    connections.add { try await backend.shutdown() }
                    return RecordStore(backend: backend)
                }
            }

            /// Closes the database's connections, every store's.
            public func close() async throws {
                for shutdown in connections.takeAll() { try await shutdown() }
            }
        }

        /// The PostgreSQL connections a database opened, shut down when it closes. `shutdowns` is only
        /// touched while `lock` is held.
        final class Connections: @unchecked Sendable {
            private let lock = NSLock()
            private var shutdowns: [@Sendable () async throws -> Void] = []

            func add(_ shutdown: @escaping @Sendable () async throws -> Void) { lock.withLock { shutdowns.append(shutdown) } }

            func takeAll() -> [@Sendable () async throws -> Void] {
                lock.withLock {
                    defer { shutdowns = [] }
                    return shutdowns
                }
            }
        }

        """

}
