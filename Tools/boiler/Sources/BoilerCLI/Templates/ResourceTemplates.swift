import _KitSupport

/// The files `boiler add resource` writes, as template files of the `resource` folder (a server
/// project) or the `app-resource` folder (an app project), and the values they read. Every name
/// written into source comes from a checked ``ResourceSpec`` (ASCII letters and digits) and the
/// record's checked module name; fields are only ever read as members (`self.name`,
/// `current.name`), so no field name can shadow a local.
///
/// This code computes names, one record per field (its Swift type, column and JSON names, sample
/// values, whether it is checked as text) and the file plan; the text is in the template files.
enum ResourceTemplates {
    /// What a resource's files leave open, given to them as values. A resource added with
    /// `boiler add resource` takes the defaults; the server template's `Note` takes ``note``'s,
    /// which keep the public names its projects have always had.
    struct Options: Sendable {
        /// The error case a missing record throws: `notFound`, or a case of its own (`noteNotFound`).
        var notFoundCase = "notFound"
        /// Whether that case names the resource (`notFound("tag", id:)`) or only the id
        /// (`noteNotFound(id:)`).
        var notFoundNamesResource = true
        /// The name of the constant holding the longest text; nil for `maximum<Type>TextLength`.
        var maximumTextLength: String? = nil
        /// Whether the tests reach the domain among the added resources (`resources.tags`) or as
        /// the test server's own domain (`domain`).
        var amongResources = true
        /// What wrote the files, for their first comment; nil for `boiler add resource <its arguments>`.
        var writtenBy: String? = nil
        /// An app resource's model, which its commands change: nil for its own list (`TagList`).
        var model: String? = nil
        /// The property of that model holding the records.
        var items = "items"
    }

    /// The names a resource's files use.
    struct Names {
        let spec: ResourceSpec
        /// The project's module: `Notes`.
        let module: String
        /// What the files leave open.
        var options = Options()

        var core: String { module + "Core" }
        var error: String { module + "Error" }
        /// `Tag`.
        var type: String { spec.name }
        /// `tag`.
        var one: String { spec.lowerCamel(spec.name) }
        /// `tags`.
        var many: String { spec.plural }
        /// `tags`, `order-lines`: the URL path segment.
        var path: String { spec.pathSegment }
        /// `tags`, `order_lines`: the table.
        var table: String { ResourceSpec.plural(of: PartTemplates.snake(spec.name)) }
        /// `tag`, `order line`: in sentences.
        var words: String { PartTemplates.words(spec.name).joined(separator: " ") }
        /// Query parameter and local names a Bool filter must not take.
        static let busyNames: Set<String> = [
            "q", "limit", "offset", "containing", "filter", "items", "total", "page", "query", "domain", "records",
            "bus",
        ]
        /// The non-optional Bool fields the list route filters on (`?done=true`).
        var boolFilters: [ResourceSpec.Field] {
            spec.fields.filter { $0.type == .bool && !$0.optional && !Self.busyNames.contains($0.name) }
        }
    }

    /// The folder of a server project's resource template files.
    static let serverFolder = "resource"
    /// The folder of an app project's resource template files.
    static let appFolder = "app-resource"

    /// A server project's files for the resource: entity, events, commands, domain, routes, tests.
    static func server(_ n: Names) -> [TemplateFile] {
        let values = values(n)
        let plan = [
            ("Sources/\(n.core)/Model/\(n.type).swift", "Sources/Core/Model/Resource.swift"),
            ("Sources/\(n.core)/Model/\(n.type)Events.swift", "Sources/Core/Model/ResourceEvents.swift"),
            ("Sources/\(n.core)/Commands/\(n.type)Commands.swift", "Sources/Core/Commands/ResourceCommands.swift"),
            ("Sources/\(n.core)/\(n.type)Domain.swift", "Sources/Core/ResourceDomain.swift"),
            ("Sources/\(n.core)/HTTP/\(n.type)Routes.swift", "Sources/Core/HTTP/ResourceRoutes.swift"),
            ("Sources/\(n.core)/HTTP/\(n.type)SyncRoutes.swift", "Sources/Core/HTTP/ResourceSync.swift"),
            ("Tests/\(n.core)Tests/\(n.type)RoutesTests.swift", "Tests/CoreTests/ResourceRoutesTests.swift"),
            ("Tests/\(n.core)Tests/\(n.type)CommandTests.swift", "Tests/CoreTests/ResourceCommandTests.swift"),
            ("Tests/\(n.core)Tests/\(n.type)SyncTests.swift", "Tests/CoreTests/ResourceSyncTests.swift"),
        ]
        return plan.map { TemplateFile($0.0, "\(serverFolder)/\($0.1)", values) }
    }

    /// An app project's files for the resource: the entity, a collection model the commands
    /// change through the kit's CommandRunner, the commands and their tests.
    static func app(_ n: Names) -> [TemplateFile] {
        let values = values(n)
        let plan = [
            ("Sources/\(n.core)/Model/\(n.type).swift", "Sources/Core/Model/Resource.swift"),
            ("Sources/\(n.core)/Model/\(n.type)List.swift", "Sources/Core/Model/ResourceList.swift"),
            ("Sources/\(n.core)/Commands/\(n.type)Commands.swift", "Sources/Core/Commands/ResourceCommands.swift"),
            ("Tests/\(n.core)Tests/\(n.type)CommandsTests.swift", "Tests/CoreTests/ResourceCommandsTests.swift"),
        ]
        return plan.map { TemplateFile($0.0, "\(appFolder)/\($0.1)", values) }
    }

    /// An app project's files for a synced resource (`--synced`): the revisioned entity, the
    /// commands writing through its `SyncedRecordStore`, the service running its `SyncEngine`,
    /// and their tests. The service is registered by the app's machine file `_Parts.swift`.
    static func appSynced(_ n: Names) -> [TemplateFile] {
        let values = values(n)
        let plan = [
            ("Sources/\(n.core)/Model/\(n.type).swift", "Sources/Core/Model/SyncedResource.swift"),
            (
                "Sources/\(n.core)/Commands/\(n.type)Commands.swift",
                "Sources/Core/Commands/SyncedResourceCommands.swift"
            ),
            (
                "Sources/\(n.core)/Services/\(n.type)SyncService.swift",
                "Sources/Core/Services/ResourceSyncService.swift"
            ),
            ("Tests/\(n.core)Tests/\(n.type)CommandsTests.swift", "Tests/CoreTests/SyncedResourceCommandsTests.swift"),
            ("Tests/\(n.core)Tests/\(n.type)SyncServiceTests.swift", "Tests/CoreTests/ResourceSyncServiceTests.swift"),
        ]
        return plan.map { TemplateFile($0.0, "\(appFolder)/\($0.1)", values) }
    }

    /// An app project's files for `spec`: ``appSynced(_:)``'s when it is synced, else ``app(_:)``'s.
    static func app(spec: ResourceSpec, module: String) -> [TemplateFile] {
        let names = Names(spec: spec, module: module)
        return spec.isSynced ? appSynced(names) : app(names)
    }

    /// The environment variable an app reads its sync server's base URL from: `NOTES_SYNC_URL`.
    static func syncURLKey(module: String) -> String { module.uppercased() + "_SYNC_URL" }

    /// The server and app templates' own resource, `Note`: a text and a pin that starts false.
    /// Its entity is designed in the project's model design (ModelGen writes the type; the
    /// project's `Model/Note.swift` adds the initializer the commands use), and its extras (the
    /// server's activity log; the app's pin and import commands, deep links and service) are files
    /// of the template's own folder; everything else comes from the same files as every resource's.
    static let note = ResourceSpec(
        builtIn: "Note",
        fields: [
            .init(name: "text", type: .string, optional: false, summary: "The note's text; it must not be blank."),
            .init(
                name: "pinned", type: .bool, optional: false, defaultValue: "false",
                summary: "Whether the note starts pinned."),
        ])

    /// Note's values: the error case and constant its projects have always had.
    static let noteOptions = Options(
        notFoundCase: "noteNotFound", notFoundNamesResource: false, maximumTextLength: "maximumNoteLength",
        amongResources: false,
        writtenBy: "`boiler new` (the server template's resource `Note text:String pinned:Bool=false`)")

    /// The files of `Note` in a server project, rendered from the resource templates: every one
    /// a resource has but the entity.
    static func serverNote(module: String) -> [TemplateFile] {
        let n = Names(spec: note, module: module, options: noteOptions)
        return server(n).filter { $0.source != .file("\(serverFolder)/Sources/Core/Model/Resource.swift") }
    }

    /// The app template's own resource, `Note`, and its values: its commands change the app's
    /// model (`NotesModel.notes`), which holds the notes, rather than a list of their own.
    static func appNoteOptions(module: String) -> Options {
        Options(
            amongResources: false,
            writtenBy: "`boiler new` (the app template's resource `Note text:String pinned:Bool=false`)",
            model: "\(module)Model", items: "notes")
    }

    /// The files of `Note` in an app project, rendered from the app resource templates: the
    /// commands and their tests. The entity is designed (ModelGen) and the app's model holds the
    /// notes, so `Resource.swift` and `ResourceList.swift` are not among them.
    static func appNote(module: String) -> [TemplateFile] {
        let n = Names(spec: note, module: module, options: appNoteOptions(module: module))
        let own = ["Sources/Core/Model/Resource.swift", "Sources/Core/Model/ResourceList.swift"]
        return app(n).filter { file in !own.contains { file.source == .file("\(appFolder)/\($0)") } }
    }

    /// Where the machine file that wires a server's resources in is.
    static func wiringPath(module: String) -> String { "Sources/\(module)Core/Generated/_Resources.swift" }

    /// The machine file that opens and routes every added resource of a server project.
    static func serverWiring(module: String, resources: [ResourceSpec]) -> TemplateFile {
        let names = resources.map { Names(spec: $0, module: module) }
        let items: [[String: TemplateValue]] = names.enumerated().map { index, n in
            [
                "type": .text(n.type), "many": .text(n.many), "words": .text(n.words), "path": .text(n.path),
                "tableLiteral": .text(SwiftSource.literal(n.table)), "last": .flag(index == names.count - 1),
                "pathLiteral": .text(SwiftSource.literal(n.path)),
            ]
        }
        return TemplateFile(
            wiringPath(module: module), "\(serverFolder)/Sources/Core/Generated/_Resources.swift",
            ["module": .text(module), "resources": .list(items), "anyResources": .flag(!items.isEmpty)])
    }

    /// How to run a synced resource's service and point it at a server.
    static func syncedHint(_ n: Names) -> String {
        """
        Start the service when the app launches: try await app.services.start(\(n.type)SyncService.name); \
        then write \(n.words) records with Create\(n.type)(…).execute(on: service.store). Set \
        \(syncURLKey(module: n.module)) to the base URL of a server project with the same resource \
        (boiler add resource \(n.type) \(n.spec.fields.map(\.argument).joined(separator: " "))); without it sync is off.
        """
    }

    /// How to use the new commands from the app's own model.
    static func appHint(_ n: Names) -> String {
        """
        Run the commands on a ModelStore(\(n.type)List()) through a CommandRunner, or keep the \(n.words) records \
        in \(n.module)Model with `public var \(n.many) = \(n.type)List()`.
        """
    }

    // MARK: - Values

    /// Every value the resource's template files read.
    static func values(_ n: Names) -> [String: TemplateValue] {
        let fields = n.spec.fields
        // The fields a create must be given: not optional, no default.
        let required = fields.filter { !$0.optional && $0.defaultValue == nil }
        let defaulted = fields.filter { $0.defaultValue != nil }
        let search = n.spec.searchField
        let blank = required.first { $0.type == .string }
        var values: [String: TemplateValue] = [
            "module": .text(n.module), "moduleLowercased": .text(n.module.lowercased()), "core": .text(n.core),
            "error": .text(n.error), "type": .text(n.type), "one": .text(n.one), "many": .text(n.many),
            "path": .text(n.path), "pathLiteral": .text(SwiftSource.literal(n.path)), "table": .text(n.table),
            "tableLiteral": .text(SwiftSource.literal(n.table)), "words": .text(n.words),
            "wordsLiteral": .text(SwiftSource.literal(n.words)),
            "notFoundCase": .text(n.options.notFoundCase),
            "notFoundResource": .text(n.options.notFoundNamesResource ? SwiftSource.literal(n.words) + ", " : ""),
            "notFoundSymbol": .text(n.options.notFoundCase + (n.options.notFoundNamesResource ? "(_:id:)" : "(id:)")),
            "maximumTextLength": .text(n.options.maximumTextLength ?? "maximum\(n.type)TextLength"),
            "appArguments": .text(n.options.amongResources ? "client, _, resources" : "client, domain, _"),
            "domain": .text(n.options.amongResources ? "resources.\(n.many)" : "domain"),
            "defaulted": list(defaulted), "anyDefaults": .flag(!defaulted.isEmpty),
            "model": .text(n.options.model ?? "\(n.type)List"), "items": .text(n.options.items),
            "requiredJSON0": .text(raw(sampleJSON(required, 0))),
            "fieldList": .text(fields.map(\.argument).joined(separator: " ")),
            "writtenBy": .text(
                n.options.writtenBy
                    ?? "`boiler add resource \(n.type) \(fields.map(\.argument).joined(separator: " "))"
                    + (n.spec.isSynced ? " --synced`" : "`")),
            "fieldCount": .text("\(fields.count)"),
            "urlKey": .text(syncURLKey(module: n.module)),
            "bodyLimit": .text(bodyLimit(n)),
            "example": .text("{" + fields.map { "\"\($0.name)\": …" }.joined(separator: ", ") + "}"),
            "sampleJSON0": .text(raw(sampleJSON(fields, 0))),
            "firstJSON1": .text(raw(sampleJSON(Array(fields.prefix(1)), 1))),
            "filtered": .flag(search != nil || !n.boolFilters.isEmpty),
            "fields": list(fields), "required": list(required), "others": list(Array(fields.dropFirst())),
            "firstField": list(Array(fields.prefix(1))), "boolFilters": boolFilters(n, required: required),
            "search": list(search.map { [$0] } ?? []),
            "searchArgs": arguments(
                fields.filter { !$0.optional || $0.name == search?.name }, override: (search?.name, "text")),
            "optionalField": list(fields.first(where: \.optional).map { [$0] } ?? []),
            "blankArgs": arguments(required, override: (blank?.name, "\" \\n\"")),
        ]
        values["missing"] = .list(
            required.prefix(1).map { field in
                ["name": .text(field.name), "json": .text(raw(sampleJSON(Array(required.dropFirst()), 0)))]
            })
        values["blank"] = .list(
            blank.map { text in
                let json =
                    "{"
                    + required.map {
                        "\"\($0.name)\": " + ($0.name == text.name ? "\"   \"" : sample($0.type, 0).json)
                    }.joined(separator: ", ") + "}"
                return [
                    [
                        "name": .text(text.name), "nameLiteral": .text(SwiftSource.literal(text.name)),
                        "blankJSON": .text(raw(json)),
                    ]
                ]
            } ?? [])
        return values
    }

    /// The most bytes `POST` and `PATCH` read: four UTF-8 bytes for each character a text field
    /// may hold, plus 4 KB for the other fields, the keys and the JSON around them.
    static func bodyLimit(_ n: Names) -> String {
        let texts = n.spec.fields.filter { $0.type == .string }.count
        let maximum = n.options.maximumTextLength ?? "maximum\(n.type)TextLength"
        switch texts {
        case 0: return "4096"
        case 1: return "\(maximum) * 4 + 4096"
        default: return "\(maximum) * 4 * \(texts) + 4096"
        }
    }

    /// One record per Bool filter: the field's, plus the arguments of a create that sets it true
    /// (`trueArgs`) and one that sets it false (`falseArgs`).
    static func boolFilters(_ n: Names, required: [ResourceSpec.Field]) -> TemplateValue {
        guard case .list(let records) = list(n.boolFilters) else { return .list([]) }
        return .list(
            zip(n.boolFilters, records).map { field, record in
                var record = record
                let given = n.spec.fields.filter { $0.name == field.name || required.contains($0) }
                record["trueArgs"] = arguments(given, override: (field.name, "true"))
                record["falseArgs"] = arguments(given, override: (field.name, "false"))
                return record
            })
    }

    /// One record per field, in order; `last` marks the last, for separators.
    static func list(_ fields: [ResourceSpec.Field]) -> TemplateValue {
        .list(
            fields.enumerated().map { index, field in
                [
                    "name": .text(field.name), "nameLiteral": .text(SwiftSource.literal(field.name)),
                    "summary": .text(field.summary ?? "The \(field.name)."),
                    "columnLiteral": .text(SwiftSource.literal(PartTemplates.snake(field.name))),
                    "swiftType": .text(field.swiftType), "baseType": .text(field.type.rawValue),
                    "optional": .flag(field.optional), "text": .flag(field.type == .string),
                    "hasDefault": .flag(field.defaultValue != nil), "defaultLiteral": .text(field.defaultLiteral ?? ""),
                    "sample0": .text(sample(field.type, 0).swift), "sample1": .text(sample(field.type, 1).swift),
                    "last": .flag(index == fields.count - 1),
                ]
            })
    }

    /// `name: "Milk"` arguments for `fields` (sample 0), one field's value replaced by an expression.
    static func arguments(
        _ fields: [ResourceSpec.Field], override: (field: String?, expression: String)
    ) -> TemplateValue {
        .list(
            fields.enumerated().map { index, field in
                [
                    "name": .text(field.name),
                    "value": .text(field.name == override.field ? override.expression : sample(field.type, 0).swift),
                    "last": .flag(index == fields.count - 1),
                ]
            })
    }

    /// Sample `index` (0, 1 or 2) of a field's type, as JSON and as a Swift expression. Dates are
    /// whole seconds, so they survive ISO 8601 unchanged.
    static func sample(_ type: ResourceSpec.FieldType, _ index: Int) -> (json: String, swift: String) {
        switch type {
        case .string:
            let text = ["Milk", "Bread", "Oat milk"][index]
            return ("\"\(text)\"", "\"\(text)\"")
        case .int: return ("\(index + 1)", "\(index + 1)")
        case .double: return ("\(index + 1).5", "\(index + 1).5")
        case .bool: return (index == 1 ? "false" : "true", index == 1 ? "false" : "true")
        case .date:
            let seconds = 1_767_323_045 + index * 86_400
            return ("\"2026-01-0\(2 + index)T03:04:05Z\"", "Date(timeIntervalSince1970: \(seconds))")
        case .uuid:
            let text = "6BA7B81\(index)-9DAD-11D1-80B4-00C04FD430C8"
            return ("\"\(text)\"", "(UUID(uuidString: \"\(text)\") ?? UUID())")
        }
    }

    /// A JSON object with sample `index` of `fields`.
    static func sampleJSON(_ fields: [ResourceSpec.Field], _ index: Int) -> String {
        "{" + fields.map { "\"\($0.name)\": \(sample($0.type, index).json)" }.joined(separator: ", ") + "}"
    }

    /// `#"…"#`: the JSON samples hold quotes but never `"#`.
    static func raw(_ json: String) -> String { "#\"" + json + "\"#" }
}
