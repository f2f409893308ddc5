import _KitSupport

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

    /// The values every part's files read.
    static func values(_ c: Context) -> [String: TemplateValue] {
        ["part": .text(c.part), "module": .text(c.module), "core": .text(c.core), "camel": .text(c.camel)]
    }

    static func command(_ c: Context) -> [TemplateFile] {
        [
            TemplateFile(
                "Sources/\(c.core)/Commands/\(c.part).swift", "server-command/Sources/Core/Commands/Command.swift",
                values(c)),
            TemplateFile(
                "Tests/\(c.core)Tests/\(c.part)Tests.swift", "server-command/Tests/CoreTests/CommandTests.swift",
                values(c)),
        ]
    }

    static func route(_ c: Context) -> [TemplateFile] {
        let path = PartTemplates.kebab(c.part)
        let routeValues = values(c).merging([
            "path": .text(path), "pathLiteral": .text(SwiftSource.literal(path)),
            "slashPathLiteral": .text(SwiftSource.literal("/" + path)),
            "partLiteral": .text(SwiftSource.literal(c.part)),
        ]) { _, new in new }
        return [
            TemplateFile(
                "Sources/\(c.core)/HTTP/\(c.part)Routes.swift", "server-route/Sources/Core/HTTP/Routes.swift",
                routeValues),
            TemplateFile(
                "Tests/\(c.core)Tests/\(c.part)RoutesTests.swift", "server-route/Tests/CoreTests/RoutesTests.swift",
                routeValues),
        ]
    }

    static func service(_ c: Context) -> [TemplateFile] {
        [
            TemplateFile(
                "Sources/\(c.core)/Services/\(c.part)Service.swift",
                "server-service/Sources/Core/Services/Service.swift",
                values(c))
        ]
    }

    /// The machine file that adds the routes and registers the services added with `boiler add`.
    static func parts(module: String, routes: [String], services: [String]) -> TemplateFile {
        TemplateFile(
            path(module: module), "server/Sources/Core/Generated/_Parts.swift",
            [
                "module": .text(module), "routes": .list(routes.map { ["name": .text($0)] }),
                "services": .list(services.map { ["name": .text($0)] }),
            ])
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
