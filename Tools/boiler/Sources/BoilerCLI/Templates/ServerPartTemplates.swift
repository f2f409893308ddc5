/// The files `boiler add command|route|service|model` writes in a server project, where commands
/// run against the ``NoteDomain`` of the template, routes are Hummingbird routes, and services run
/// beside the HTTP server in its service group.
enum ServerPartTemplates {
    /// Values every server part template uses.
    struct Context {
        /// The part's type name, such as `ArchiveNote`.
        var part: String
        /// The project's module, such as `Notes` (its core module is `NotesCore`).
        var module: String

        var core: String { "\(module)Core" }
        /// The part's name with a lowercase first letter, for function names.
        var camel: String { part.prefix(1).lowercased() + part.dropFirst() }
    }

    static func command(_ c: Context) -> [PlannedFile] {
        [
            PlannedFile(
                "Sources/\(c.core)/Commands/\(c.part).swift",
                """
                import Boilerplate
                import Foundation

                /// \(c.part): say here what this command changes and when it refuses.
                public struct \(c.part): NoteCommand {
                    /// Creates the command; add the inputs it needs as properties.
                    public init() {}

                    /// Changes the notes through `domain.records` and announces the change on
                    /// `domain.bus`; throw a ``\(c.module)Error`` to refuse, before anything is written.
                    public func run(in domain: NoteDomain) async throws {}
                }

                """),
            PlannedFile(
                "Tests/\(c.core)Tests/\(c.part)Tests.swift",
                """
                import Boilerplate
                import Foundation
                import Testing

                @testable import \(c.core)

                @Test("\(c.part) changes the notes as intended")
                func \(c.camel)ChangesTheNotes() async throws {
                    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(c.module)Tests-\\(UUID())")
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    defer { try? FileManager.default.removeItem(at: folder) }
                    let database = try await \(c.module)Database.open(.sqlite(folder.appendingPathComponent("notes.sqlite")))
                    let domain = NoteDomain(records: database.records)
                    let note = try await domain.run(CreateNote(text: "Milk"))
                    try await domain.run(\(c.part)())
                    // Describe the change \(c.part) makes; a new command changes nothing yet.
                    #expect(try await domain.note(id: note.id).text == "Milk")
                    try await database.close()
                }

                """),
        ]
    }

    static func route(_ c: Context) -> [PlannedFile] {
        let path = PartTemplates.kebab(c.part)
        return [
            PlannedFile(
                "Sources/\(c.core)/HTTP/\(c.part)Routes.swift",
                """
                import Boilerplate
                import Foundation
                import Hummingbird

                /// The routes of \(c.part): `GET /\(path)`. Say here what they serve.
                public enum \(c.part)Routes {
                    /// Adds the routes to `router`; requests reach the notes through `domain`.
                    public static func add(to router: Router<BasicRequestContext>, domain: NoteDomain) {
                        router.get(\(SwiftSource.literal(path))) { _, _ in
                            // Answer with what Hummingbird can write: a String, a ResponseCodable value or
                            // a Response; throw an HTTPError for a status other than 200.
                            \(SwiftSource.literal(c.part))
                        }
                    }
                }

                """),
            PlannedFile(
                "Tests/\(c.core)Tests/\(c.part)RoutesTests.swift",
                """
                import Foundation
                import Hummingbird
                import HummingbirdTesting
                import Testing

                @testable import \(c.core)

                @Test("GET /\(path) answers")
                func \(c.camel)RoutesAnswer() async throws {
                    try await withServer { client, _ in
                        try await client.execute(uri: \(SwiftSource.literal("/" + path)), method: .get) { response in
                            #expect(response.status == .ok)
                        }
                    }
                }

                """),
        ]
    }

    static func service(_ c: Context) -> [PlannedFile] {
        [
            PlannedFile(
                "Sources/\(c.core)/Services/\(c.part)Service.swift",
                """
                import Boilerplate
                import Foundation

                /// \(c.part)Service: say here what runs while the service is started. It runs beside
                /// the HTTP server in the server's service group and stops after the server has.
                public final class \(c.part)Service: AppService {
                    let bus: Bus
                    let log: LogSink

                    /// Creates the service for the server's bus and log.
                    public init(bus: Bus, log: LogSink) {
                        self.bus = bus
                        self.log = log
                    }

                    /// Starts the service.
                    public func start(options: [String: any Sendable]) async throws {}

                    /// Stops the service.
                    public func stop() async throws {}
                }

                """)
        ]
    }

    /// The machine file that adds the routes and registers the services added with `boiler add`.
    static func parts(module: String, routes: [String], services: [String]) -> PlannedFile {
        let routeLines = routes.map { "        \($0)Routes.add(to: router, domain: domain)\n" }
        let serviceLines = services.map {
            "        services.register(\($0)Service.self) { \($0)Service(bus: domain.bus, log: log) }\n"
        }
        return PlannedFile(
            path(module: module),
            """
            // Machine file written by `boiler new` and rewritten by `boiler add route|service`.
            // Do not edit: boiler refuses to overwrite it once it has been changed by hand.
            import Boilerplate
            import Hummingbird

            /// The routes and services added with `boiler add route|service`.
            public enum \(module)Parts {
                /// Adds the routes added with `boiler add route` to `router`.
                public static func addRoutes(to router: Router<BasicRequestContext>, domain: NoteDomain) {
            \(routeLines.joined())    }

                /// Registers the services added with `boiler add service`; they run beside the HTTP
                /// server and stop after it.
                public static func registerServices(in services: ServiceRegistry, domain: NoteDomain, log: LogSink) {
            \(serviceLines.joined())    }
            }

            """)
    }

    /// Where the machine file is.
    static func path(module: String) -> String { "Sources/\(module)Core/Generated/_Parts.swift" }

    /// What to call by hand in a server project made before `boiler new` wrote the machine file.
    static func wiringHint(module: String) -> String {
        """
        \(path(module: module)) is new to this project. Call it once, by hand:
          in \(module)Server.router(domain:resources:):  \(module)Parts.addRoutes(to: router, domain: domain)
          in Sources/\(module)/main.swift, after NoteActivityLog is registered:
                                                 \(module)Parts.registerServices(in: services, domain: domain, log: LogSink(log))
        """
    }
}
