import _KitSupport

/// The files `boiler add` writes for each kind of part.
enum PartTemplates {
    /// Values every part template uses.
    struct Context {
        var part: String
        var core: String
        var model: String
        var importLine: String
    }

    /// The values every part's files read.
    static func values(_ c: Context) -> [String: TemplateValue] {
        [
            "part": .text(c.part), "core": .text(c.core), "model": .text(c.model), "importLine": .text(c.importLine),
            "camel": .text(c.part.prefix(1).lowercased() + c.part.dropFirst()),
        ]
    }

    static func command(_ c: Context) -> [TemplateFile] {
        [
            TemplateFile(
                "Sources/\(c.core)/Commands/\(c.part).swift", "command/Sources/Core/Commands/Command.swift", values(c)),
            TemplateFile(
                "Tests/\(c.core)Tests/\(c.part)Tests.swift", "command/Tests/CoreTests/CommandTests.swift", values(c)),
        ]
    }

    static func route(_ c: Context) -> [TemplateFile] {
        let path = "/" + kebab(c.part)
        let routeValues = values(c).merging([
            "path": .text(path), "pathLiteral": .text(SwiftSource.literal(path)),
            "nameLiteral": .text(SwiftSource.literal(snake(c.part))),
        ]) { _, new in new }
        return [
            TemplateFile(
                "Sources/\(c.core)/Routes/\(c.part)Routes.swift", "route/Sources/Core/Routes/Routes.swift", routeValues)
        ]
    }

    static func service(_ c: Context) -> [TemplateFile] {
        [
            TemplateFile(
                "Sources/\(c.core)/Services/\(c.part)Service.swift", "service/Sources/Core/Services/Service.swift",
                values(c))
        ]
    }

    static func model(_ c: Context) -> [TemplateFile] {
        [
            TemplateFile(
                "Sources/\(c.core)/Designs/\(c.part).modelgen.yaml", "model/Sources/Core/Designs/Model.modelgen.yaml",
                values(c))
        ]
    }

    /// Where an app's machine file of added parts is.
    static func partsPath(core: String) -> String { "Sources/\(core)/Generated/_Parts.swift" }

    /// The machine file that registers the routes and services added with `boiler add`.
    static func parts(
        core: String, model: String, routes: [String], services: [String], synced: [String] = []
    ) -> TemplateFile {
        // Names are checked module names; the literal escapes anyway, as every string written into source.
        TemplateFile(
            partsPath(core: core), "app/Sources/Core/Generated/_Parts.swift",
            [
                "model": .text(model),
                "routes": .list(routes.map { ["name": .text($0)] }),
                "services": .list(
                    services.map { ["name": .text($0), "nameLiteral": .text(SwiftSource.literal(snake($0)))] }),
                // Synced resources (`boiler add resource … --synced`): each registers its sync service.
                "synced": .list(synced.map { ["name": .text($0)] }), "anySynced": .flag(!synced.isEmpty),
            ])
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
