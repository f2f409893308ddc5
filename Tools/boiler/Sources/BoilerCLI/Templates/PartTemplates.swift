/// The files `boiler add` writes for each kind of part.
enum PartTemplates {
    /// Values every part template uses.
    struct Context {
        var part: String
        var core: String
        var model: String
        var importLine: String
    }

    static func command(_ c: Context) -> [PlannedFile] {
        [
            PlannedFile(
                "Sources/\(c.core)/Commands/\(c.part).swift",
                """
                import \(c.importLine)

                /// \(c.part): say here what this command changes and when it refuses.
                public struct \(c.part): Command {
                    /// Creates the command; add the inputs it needs as properties.
                    public init() {}

                    /// Changes the model; throw to leave it untouched.
                    public func execute(_ model: inout \(c.model)) throws {}
                }

                """),
            PlannedFile(
                "Tests/\(c.core)Tests/\(c.part)Tests.swift",
                """
                import \(c.importLine)
                import Testing
                @testable import \(c.core)

                @Test("\(c.part) changes the model as intended")
                func \(c.part.prefix(1).lowercased() + c.part.dropFirst())ChangesTheModel() throws {
                    let store = ModelStore(\(c.model)())
                    let runner = CommandRunner(store: store)
                    try runner.execute(\(c.part)())
                    // Describe the change \(c.part) makes; a new command changes nothing yet.
                    #expect(store.model == \(c.model)())
                }

                """),
        ]
    }

    static func route(_ c: Context) -> [PlannedFile] {
        let path = "/" + kebab(c.part)
        return [
            PlannedFile(
                "Sources/\(c.core)/Routes/\(c.part)Routes.swift",
                """
                import \(c.importLine)

                /// Deep links for \(c.part): `\(path)`.
                public enum \(c.part)Routes {
                    /// Adds the routes to `router`.
                    public static func register(on router: RouteTable) throws {
                        try router.add(\(SwiftSource.literal(path)), name: \(SwiftSource.literal(snake(c.part)))) { _ in }
                    }
                }

                """)
        ]
    }

    static func service(_ c: Context) -> [PlannedFile] {
        [
            PlannedFile(
                "Sources/\(c.core)/Services/\(c.part)Service.swift",
                """
                import \(c.importLine)

                /// \(c.part)Service: say here what runs while the service is started.
                public final class \(c.part)Service: AppService {
                    let bus: Bus

                    /// Creates the service for an app's bus.
                    public init(bus: Bus) { self.bus = bus }

                    /// Starts the service with the options given to `services.start`.
                    public func start(options: [String: any Sendable]) async throws {}

                    /// Stops the service.
                    public func stop() async throws {}
                }

                """)
        ]
    }

    static func model(_ c: Context) -> [PlannedFile] {
        [
            PlannedFile(
                "Sources/\(c.core)/Designs/\(c.part).modelgen.yaml",
                """
                # The \(c.part) entity. ModelGen's build plugin turns it into `struct \(c.part)` at build time;
                # see ModelGen's "Designing a model" for every attribute type and option.
                entities:
                  - name: \(c.part)
                    attributes:
                      - { name: id, type: UUID }

                """)
        ]
    }

    /// The machine file that registers the routes and services added with `boiler add`.
    static func parts(core: String, model: String, routes: [String], services: [String]) -> PlannedFile {
        var lines: [String] = []
        for route in routes { lines.append("        try \(route)Routes.register(on: router)") }
        for service in services {
            // Names are checked module names; the literal escapes anyway, as every string written into source.
            lines.append(
                "        services.register(\(SwiftSource.literal(snake(service)))) { [bus] in \(service)Service(bus: bus) }"
            )
        }
        let body = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
        return PlannedFile(
            "Sources/\(core)/Generated/_Parts.swift",
            """
            // Machine file written by `boiler new` and rewritten by `boiler add route|service`.
            // Do not edit: boiler refuses to overwrite it once it has been changed by hand.
            import Boilerplate

            extension AppCore where Model == \(model) {
                /// Registers the routes and services added with `boiler add`.
                func registerAddedParts() throws {
            \(body)    }
            }

            """)
    }

    /// `UserProfile` → `user-profile`.
    static func kebab(_ name: String) -> String { words(name).joined(separator: "-") }

    /// `UserProfile` → `user_profile`.
    static func snake(_ name: String) -> String { words(name).joined(separator: "_") }

    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in name {
            if character.isUppercase && !current.isEmpty && !(current.last?.isUppercase ?? false) {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }
    }
}
