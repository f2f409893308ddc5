/// The files `boiler add resource` writes. Every name written into source comes from a checked
/// ``ResourceSpec`` (ASCII letters and digits) and the record's checked module name; fields are
/// only ever read as members (`self.name`, `current.name`), so no field name can shadow a local.
enum ResourceTemplates {
    /// The names a resource's files use.
    struct Names {
        let spec: ResourceSpec
        /// The project's module: `Notes`.
        let module: String

        var core: String { module + "Core" }
        var error: String { module + "Error" }
        /// `Tag`.
        var type: String { spec.name }
        /// `tag`.
        var one: String { spec.lowerCamel(spec.name) }
        /// `tags`.
        var many: String { spec.plural }
        /// `Tags`.
        var manyType: String { ResourceSpec.plural(of: spec.name) }
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

    /// The machine file that opens and routes every added resource of a server project.
    static func serverWiring(module: String, resources: [ResourceSpec]) -> PlannedFile {
        let names = resources.map { Names(spec: $0, module: module) }
        let properties = names.map {
            "    /// The \($0.words) records (`/\($0.path)`).\n    public let \($0.many): \($0.type)Domain\n"
        }
        let opens = names.map { "            " + openLine($0) }
        let construct =
            opens.isEmpty ? "\(module)Resources()" : "\(module)Resources(\n\(opens.joined(separator: ",\n"))\n        )"
        let routes = names.map { "        " + routeLine($0) + "\n" }
        return PlannedFile(
            "Sources/\(module)Core/Generated/_Resources.swift",
            """
            // Machine file written by `boiler new` and rewritten by `boiler add resource`.
            // Do not edit: once it is changed by hand, boiler leaves it alone and prints the lines to add instead.
            import Boilerplate
            import Hummingbird

            /// The resources added with `boiler add resource`, each in its own table of the database.
            public struct \(module)Resources: Sendable {
            \(properties.joined(separator: "\n"))
                /// Opens every resource's table in `database`; their commands announce on `bus`.
                public static func open(in database: \(module)Database, bus: Bus) async throws -> \(module)Resources {
                    \(construct)
                }

                /// Adds every resource's routes to `router`.
                public func add(to router: Router<BasicRequestContext>) {
            \(routes.joined())    }
            }

            """)
    }

    static func openLine(_ n: Names) -> String {
        "\(n.many): \(n.type)Domain(records: try await database.store(of: \(n.type).self, table: "
            + "\(SwiftSource.literal(n.table))), bus: bus)"
    }

    static func routeLine(_ n: Names) -> String { "\(n.type)Routes.add(to: router, domain: \(n.many))" }

    /// What to add by hand to an edited wiring file.
    static func manualWiring(_ n: Names, path: String, reason: String = "was edited by hand") -> String {
        """
        \(path) \(reason), so boiler left it as it is. To serve /\(n.path), add to \(n.module)Resources:
          the property:        public let \(n.many): \(n.type)Domain
          in open(in:bus:):    \(openLine(n))
          in add(to:):         \(routeLine(n))
        """
    }

    /// A server project's files for the resource: entity, events, commands, domain, routes, tests.
    static func server(_ n: Names) -> [PlannedFile] {
        [
            PlannedFile("Sources/\(n.core)/Model/\(n.type).swift", entity(n, server: true)),
            PlannedFile("Sources/\(n.core)/Model/\(n.type)Events.swift", events(n)),
            PlannedFile("Sources/\(n.core)/Commands/\(n.type)Commands.swift", serverCommands(n)),
            PlannedFile("Sources/\(n.core)/\(n.type)Domain.swift", domain(n)),
            PlannedFile("Sources/\(n.core)/HTTP/\(n.type)Routes.swift", routes(n)),
            PlannedFile("Tests/\(n.core)Tests/\(n.type)RoutesTests.swift", routesTests(n)),
            PlannedFile("Tests/\(n.core)Tests/\(n.type)CommandTests.swift", serverCommandTests(n)),
        ]
    }

    // MARK: - Pieces

    static func fieldList(_ n: Names) -> String { n.spec.fields.map(\.argument).joined(separator: " ") }

    /// `name: String, count: Int, note: String? = nil`
    static func parameters(_ fields: [ResourceSpec.Field]) -> String {
        fields.map { "\($0.name): \($0.swiftType)" + ($0.optional ? " = nil" : "") }.joined(separator: ", ")
    }

    static func entity(_ n: Names, server: Bool) -> String {
        let declarations = n.spec.fields.map { "    /// The \($0.name).\n    public var \($0.name): \($0.swiftType)\n" }
        let assignments = n.spec.fields.map { "        self.\($0.name) = \($0.name)\n" }
        let queryable =
            [#"QueryField(\.createdAt, "created_at")"#]
            + n.spec.fields.map { "QueryField(\\.\($0.name), \(SwiftSource.literal(PartTemplates.snake($0.name))))" }
        let conformances =
            server
            ? """

            extension \(n.type): Versioned, QueryableRecord {
                /// The version stamped on saved \(n.words) records. When the stored shape changes, raise it and
                /// add a migration from the previous version.
                public static let version = 1

                /// Steps that rewrite records saved by older versions, oldest first.
                public static let migrations: [Migration] = []

                /// The fields the database filters and sorts on; each is a column with an index.
                public static let queryableFields: [QueryField<\(n.type)>] = [
                    \(queryable.joined(separator: ",\n        ")),
                ]
            }

            """
            : """

            extension \(n.type): Versioned {
                /// The version stamped on saved \(n.words) records. When the stored shape changes, raise it and
                /// add a migration from the previous version.
                public static let version = 1

                /// Steps that rewrite records saved by older versions, oldest first.
                public static let migrations: [Migration] = []
            }

            """
        return """
            // \(n.type).swift: yours to edit. Written by `boiler add resource \(n.type) \(fieldList(n))`.
            import Boilerplate
            import Foundation

            /// A \(n.words): one record of the \(n.many) resource.
            public struct \(n.type): Codable, Sendable, Hashable, Identifiable {
                /// The \(n.words)'s id.
                public var id: UUID
                /// When the \(n.words) was created; lists are sorted by it.
                public var createdAt: Date
            \(declarations.joined())
                /// Creates a \(n.words); the id and date default to new ones.
                public init(id: UUID = UUID(), createdAt: Date = Date(), \(parameters(n.spec.fields))) {
                    self.id = id
                    self.createdAt = createdAt
            \(assignments.joined())    }
            }
            \(conformances)
            """
    }

    static func events(_ n: Names) -> String {
        """
        import Boilerplate
        import Foundation

        /// Triggered on the bus after a \(n.words) was created.
        public struct \(n.type)Created: Event {
            /// The \(n.words) as stored.
            public var \(n.one): \(n.type)
        }

        /// Triggered on the bus after a \(n.words) was changed.
        public struct \(n.type)Updated: Event {
            /// The \(n.words) as stored now.
            public var \(n.one): \(n.type)
        }

        /// Triggered on the bus after a \(n.words) was deleted.
        public struct \(n.type)Deleted: Event {
            /// The deleted \(n.words)'s id.
            public var id: UUID
        }

        """
    }

    /// `name: try checkedText(self.name, "name", required: true)` for each field.
    static func checkedArguments(_ n: Names, source: String) -> String {
        n.spec.fields.map { field in
            let value = "\(source).\(field.name)"
            let checked: String
            switch (field.type, field.optional) {
            case (.string, false):
                checked = "try checked\(n.type)Text(\(value), \(SwiftSource.literal(field.name)), required: true)"
            case (.string, true): checked = "try checked\(n.type)Text(\(value), \(SwiftSource.literal(field.name)))"
            default: checked = value
            }
            return "\(field.name): \(checked)"
        }.joined(separator: ", ")
    }

    static func serverCommands(_ n: Names) -> String {
        let createProperties = n.spec.fields.map {
            "    /// The \($0.name).\n    public var \($0.name): \($0.swiftType)\n"
        }
        let createAssignments = n.spec.fields.map { "        self.\($0.name) = \($0.name)\n" }
        let updateProperties = n.spec.fields.map {
            "    /// The new \($0.name), if it changes" + ($0.optional ? "; `.some(nil)` clears it" : "")
                + ".\n    public var \($0.name): \($0.swiftType)?\n"
        }
        let updateParameters = n.spec.fields.map { "\($0.name): \($0.swiftType)? = nil" }.joined(separator: ", ")
        let updates = n.spec.fields.map { field in
            let checked: String
            switch (field.type, field.optional) {
            case (.string, false):
                checked = "try checked\(n.type)Text(value, \(SwiftSource.literal(field.name)), required: true)"
            case (.string, true): checked = "try checked\(n.type)Text(value, \(SwiftSource.literal(field.name)))"
            default: checked = "value"
            }
            return "        if let value = self.\(field.name) { current.\(field.name) = \(checked) }\n"
        }
        let words = SwiftSource.literal(n.words)
        return """
            import Boilerplate
            import Foundation

            /// A change to the \(n.words) records: the only way one is created, changed or deleted. A command
            /// checks its input, writes through the ``\(n.type)Domain``'s record store and announces what it did.
            public protocol \(n.type)Command: Sendable {
                /// What running the command gives back.
                associatedtype Result: Sendable
                /// Runs the command against `domain`.
                func run(in domain: \(n.type)Domain) async throws -> Result
            }

            /// The longest text a \(n.words)'s text field may hold, in characters.
            public let maximum\(n.type)TextLength = 10_000

            /// Checks a text field: not blank when `required`, and not too long.
            func checked\(n.type)Text(_ text: String, _ field: String, required: Bool) throws(\(n.error)) -> String {
                if required && text.allSatisfy(\\.isWhitespace) { throw .invalidField(field, reason: "must not be blank") }
                guard text.count <= maximum\(n.type)TextLength else {
                    throw .invalidField(field, reason: "must be at most \\(maximum\(n.type)TextLength) characters long")
                }
                return text
            }

            /// Checks an optional text field: nil, or not too long.
            func checked\(n.type)Text(_ text: String?, _ field: String) throws(\(n.error)) -> String? {
                guard let text else { return nil }
                return try checked\(n.type)Text(text, field, required: false)
            }

            /// Creates a \(n.words). The id and date are inputs, so a test can name them.
            public struct Create\(n.type): \(n.type)Command {
            \(createProperties.joined())    /// The new \(n.words)'s id.
                public var id: UUID
                /// When the \(n.words) was created.
                public var createdAt: Date

                /// Creates the command; the id and date default to new ones.
                public init(\(parameters(n.spec.fields)), id: UUID = UUID(), createdAt: Date = Date()) {
            \(createAssignments.joined())        self.id = id
                    self.createdAt = createdAt
                }

                /// Stores the \(n.words) and triggers ``\(n.type)Created``.
                public func run(in domain: \(n.type)Domain) async throws -> \(n.type) {
                    let created = \(n.type)(id: self.id, createdAt: self.createdAt, \(checkedArguments(n, source: "self")))
                    try await domain.records.insert(created)
                    domain.bus.trigger(\(n.type)Created(\(n.one): created))
                    return created
                }
            }

            /// Changes a \(n.words)'s fields; a nil field keeps its value.
            public struct Update\(n.type): \(n.type)Command {
                /// The \(n.words) to change.
                public var id: UUID
            \(updateProperties.joined())
                /// Creates the command.
                public init(id: UUID, \(updateParameters)) {
                    self.id = id
            \(createAssignments.joined())    }

                /// Stores the changed \(n.words) and triggers ``\(n.type)Updated``.
                public func run(in domain: \(n.type)Domain) async throws -> \(n.type) {
                    guard var current = try await domain.records.fetch(id: self.id) else {
                        throw \(n.error).notFound(\(words), id: self.id.uuidString)
                    }
            \(updates.joined())        do {
                        try await domain.records.update(current)
                    } catch StorageError.recordNotFound {
                        // Another instance deleted it between the read and the write.
                        throw \(n.error).notFound(\(words), id: self.id.uuidString)
                    }
                    domain.bus.trigger(\(n.type)Updated(\(n.one): current))
                    return current
                }
            }

            /// Deletes a \(n.words).
            public struct Delete\(n.type): \(n.type)Command {
                /// The \(n.words) to delete.
                public var id: UUID

                /// Creates the command.
                public init(id: UUID) { self.id = id }

                /// Deletes the \(n.words) and triggers ``\(n.type)Deleted``, or throws when there is none.
                public func run(in domain: \(n.type)Domain) async throws {
                    guard try await domain.records.fetch(id: self.id) != nil else {
                        throw \(n.error).notFound(\(words), id: self.id.uuidString)
                    }
                    try await domain.records.delete(id: self.id)
                    domain.bus.trigger(\(n.type)Deleted(id: self.id))
                }
            }

            """
    }

    static func domain(_ n: Names) -> String {
        var parameters: [String] = []
        var docs: [String] = []
        var filters: [String] = []
        if let search = n.spec.searchField {
            parameters.append("containing: String? = nil")
            docs.append("    ///   - containing: Only \(n.words) records whose \(search.name) contains this.")
            filters.append("        if let containing { filter = filter && .contains(\\.\(search.name), containing) }")
        }
        for field in n.boolFilters {
            parameters.append("\(field.name): Bool? = nil")
            docs.append("    ///   - \(field.name): Only \(n.words) records whose \(field.name) is this.")
            filters.append("        if let \(field.name) { filter = filter && \\.\(field.name) == \(field.name) }")
        }
        parameters += ["limit: Int", "offset: Int"]
        let filterLines = filters.isEmpty ? "" : filters.joined(separator: "\n") + "\n"
        let words = SwiftSource.literal(n.words)
        return """
            import Boilerplate
            import Foundation

            /// The \(n.words) records in their record store and the bus their events go to. It holds nothing
            /// else: every answer comes from the database, so several server instances behave as one.
            public struct \(n.type)Domain: Sendable {
                /// Where the \(n.words) records are kept.
                public let records: RecordStore<\(n.type)>
                /// Where commands announce what they did.
                public let bus: Bus

                /// A domain over `records`, announcing on `bus`.
                public init(records: RecordStore<\(n.type)>, bus: Bus = Bus()) {
                    self.records = records
                    self.bus = bus
                }

                /// Runs a command: the only way \(n.words) records change.
                @discardableResult
                public func run<C: \(n.type)Command>(_ command: C) async throws -> C.Result {
                    try await command.run(in: self)
                }

                /// The \(n.words) with `id`.
                /// - Throws: ``\(n.error)/notFound(_:id:)`` when there is none.
                public func \(n.one)(id: UUID) async throws -> \(n.type) {
                    guard let found = try await records.fetch(id: id) else {
                        throw \(n.error).notFound(\(words), id: id.uuidString)
                    }
                    return found
                }

                /// One page of \(n.words) records, oldest first, filtered in the database.
                /// - Parameters:
            \(docs.map { $0 + "\n" }.joined())    ///   - limit: At most this many.
                ///   - offset: After skipping this many.
                public func \(n.many)(\(parameters.joined(separator: ", "))) async throws -> \(n.type)Page {
                    \(filters.isEmpty ? "let" : "var") filter = RecordPredicate<\(n.type)>.all
            \(filterLines)        let items = try await records.fetch(where: filter, sortedBy: \\.createdAt, limit: limit, offset: offset)
                    let total = try await records.count(where: filter)
                    return \(n.type)Page(items: items, total: total, limit: limit, offset: offset)
                }
            }

            /// One page of a list of \(n.words) records.
            public struct \(n.type)Page: Codable, Sendable, Equatable {
                /// The records on this page.
                public var items: [\(n.type)]
                /// How many records match the filter, on every page.
                public var total: Int
                /// The page size asked for.
                public var limit: Int
                /// How many matching records come before this page.
                public var offset: Int
            }

            """
    }

    static func routes(_ n: Names) -> String {
        let fields = n.spec.fields
        let inputProperties = fields.map { "        var \($0.name): \($0.swiftType)?\n" }
        let keys = fields.map(\.name).joined(separator: ", ")
        let decodes = fields.map { field in
            field.optional
                ? "            // Present and null clears the field; missing keeps it.\n"
                    + "            if container.contains(.\(field.name)) {\n"
                    + "                self.\(field.name) = try .some(container.decodeIfPresent(\(field.type.rawValue).self, forKey: .\(field.name)))\n"
                    + "            }\n"
                : "            self.\(field.name) = try container.decodeIfPresent(\(field.type.rawValue).self, forKey: .\(field.name))\n"
        }
        let createArguments = fields.map { field in
            field.optional
                ? "\(field.name): input.\(field.name) ?? nil"
                : "\(field.name): try required(input.\(field.name), \(SwiftSource.literal(field.name)))"
        }.joined(separator: ",\n                        ")
        let updateArguments = fields.map { "\($0.name): input.\($0.name)" }.joined(
            separator: ",\n                        ")
        var listArguments: [String] = []
        var listDocs: [String] = []
        var flagReads: [String] = []
        if let search = n.spec.searchField {
            listArguments.append(#"containing: query["q"].map(String.init)"#)
            listDocs.append("`?q=` (\(search.name) contains)")
        }
        for field in n.boolFilters {
            let literal = SwiftSource.literal(field.name)
            flagReads.append("                let \(field.name)Filter = try flag(query[\(literal)], \(literal))\n")
            listArguments.append("\(field.name): \(field.name)Filter")
            listDocs.append("`?\(field.name)=true/false`")
        }
        listArguments += ["limit: limit", "offset: offset"]
        let listDoc = (["`?limit=` (1…100, default 20)", "`?offset=`"] + listDocs).joined(separator: ", ")
        let example = "{" + fields.map { "\"\($0.name)\": …" }.joined(separator: ", ") + "}"
        let base = "/" + n.path
        return """
            import Boilerplate
            import Foundation
            import Hummingbird

            /// The REST routes of the `\(n.type)` resource:
            ///
            /// - `GET \(base)`: a page: \(listDoc)
            /// - `GET \(base)/:id`: one \(n.words)
            /// - `POST \(base)`: creates from `\(example)`; 201 with `Location`
            /// - `PATCH \(base)/:id`: changes the fields it sends (`null` clears an optional one)
            /// - `DELETE \(base)/:id`: deletes; 204
            ///
            /// Errors are problem details (RFC 9457): 404 for a missing \(n.words), 422 for bad input, 413 for
            /// a body over the limit `POST` and `PATCH` read.
            public enum \(n.type)Routes {
                /// The largest page a list may ask for.
                public static let maximumLimit = 100
                /// The page size when a list does not ask for one.
                public static let defaultLimit = 20

                /// Adds the routes to `router`; every request goes to `domain`.
                public static func add(to router: Router<BasicRequestContext>, domain: \(n.type)Domain) {
                    let group = router.group(\(SwiftSource.literal(n.path)))
                    group.get { request, context in
                        await answer(context) {
                            let query = request.uri.queryParameters
                            let limit = try integer(query["limit"], "limit", default: defaultLimit, in: 1...maximumLimit)
                            let offset = try integer(query["offset"], "offset", default: 0, in: 0...Int.max)
            \(flagReads.joined())                let page = try await domain.\(n.many)(
                                \(listArguments.joined(separator: ",\n                    ")))
                            return try json(page)
                        }
                    }
                    group.get(":id") { _, context in
                        await answer(context) { try json(try await domain.\(n.one)(id: try recordID(context))) }
                    }
                    group.post { request, context in
                        await answer(context) {
                            let input = try await Input.read(request)
                            let created = try await domain.run(
                                Create\(n.type)(
                                    \(createArguments)))
                            var response = try json(created, status: .created)
                            response.headers[.location] = "\(base)/\\(created.id.uuidString)"
                            return response
                        }
                    }
                    group.patch(":id") { request, context in
                        await answer(context) {
                            let id = try recordID(context)
                            let input = try await Input.read(request)
                            let changed = try await domain.run(
                                Update\(n.type)(
                                    id: id,
                                    \(updateArguments)))
                            return try json(changed)
                        }
                    }
                    group.delete(":id") { _, context in
                        await answer(context) {
                            try await domain.run(Delete\(n.type)(id: try recordID(context)))
                            return Response(status: .noContent)
                        }
                    }
                }

                /// What `POST` and `PATCH` read; a missing field is nil.
                struct Input: Decodable {
            \(inputProperties.joined())
                    enum CodingKeys: String, CodingKey { case \(keys) }

                    init(from decoder: any Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
            \(decodes.joined())        }

                    static func read(_ request: Request) async throws -> Input {
                        let data = try await request.body.collect(upTo: maximum\(n.type)TextLength * 4 * \(fields.count) + 4096)
                        guard data.readableBytes > 0 else { throw \(n.error).invalidField("body", reason: "must be a JSON object") }
                        let decoder = JSONDecoder()
                        decoder.dateDecodingStrategy = .iso8601
                        return try decoder.decode(Input.self, from: Data(data.readableBytesView))
                    }
                }

                /// The value of a field `POST` needs.
                static func required<Value>(_ value: Value?, _ field: String) throws -> Value {
                    guard let value else { throw \(n.error).invalidField(field, reason: "is required") }
                    return value
                }

                /// The response `body` gives, or problem details for the error it throws.
                static func answer(_ context: BasicRequestContext, _ body: () async throws -> Response) async -> Response {
                    do {
                        return try await body()
                    } catch {
                        let problem = ProblemDetails(error)
                        if problem.status >= 500 { context.logger.error("Request failed: \\(String(reflecting: error))") }
                        return problem.response
                    }
                }

                static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
                    let data = try JSONEncoder.\(n.module.lowercased()).encode(value)
                    return Response(
                        status: status, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
                }

                /// The `:id` of the path; one that is not a UUID names no \(n.words).
                static func recordID(_ context: BasicRequestContext) throws -> UUID {
                    let raw = context.parameters.get("id") ?? ""
                    guard let id = UUID(uuidString: raw) else { throw \(n.error).notFound(\(SwiftSource.literal(n.words)), id: raw) }
                    return id
                }

                static func integer(_ raw: Substring?, _ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int
                {
                    guard let raw else { return value }
                    guard let number = Int(raw), range.contains(number) else {
                        let bounds =
                            range.upperBound == Int.max
                            ? "\\(range.lowerBound) or more" : "from \\(range.lowerBound) to \\(range.upperBound)"
                        throw \(n.error).invalidField(name, reason: "must be a whole number \\(bounds), not '\\(raw)'")
                    }
                    return number
                }

                static func flag(_ raw: Substring?, _ name: String) throws -> Bool? {
                    switch raw {
                    case nil: nil
                    case "true": true
                    case "false": false
                    case let raw?: throw \(n.error).invalidField(name, reason: "must be true or false, not '\\(raw)'")
                    }
                }
            }

            """
    }
}
