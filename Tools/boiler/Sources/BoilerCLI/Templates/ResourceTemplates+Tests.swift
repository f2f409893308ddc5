// The test files `boiler add resource` writes, and the sample values they use.
extension ResourceTemplates {
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

    static func routesTests(_ n: Names) -> String {
        let fields = n.spec.fields
        let required = fields.filter { !$0.optional }
        let first = fields[0]
        let expectations = { (value: String, index: Int, set: [ResourceSpec.Field], indent: Int) in
            set.map {
                String(repeating: " ", count: indent)
                    + "#expect(\(value).\($0.name) == \(sample($0.type, index).swift))\n"
            }
            .joined()
        }
        let base = "/" + n.path
        let module = n.module
        var tests: [String] = []
        tests.append(
            """
                @Test("POST creates a \(n.words) that GET returns, with its Location")
                func createAndGet() async throws {
                    try await withApp { client, _, _ in
                        let location = try await client.execute(
                            uri: "\(base)", method: .post, body: body(\(raw(sampleJSON(fields, 0))))
                        ) { response in
                            #expect(response.status == .created)
                            let created = try decode(\(n.core).\(n.type).self, response)
                            #expect(response.headers[.location] == "\(base)/\\(created.id.uuidString)")
                            return response.headers[.location] ?? ""
                        }
                        try await client.execute(uri: location, method: .get) { response in
                            #expect(response.status == .ok)
                            let fetched = try decode(\(n.core).\(n.type).self, response)
            \(expectations("fetched", 0, fields, 16))            }
                    }
                }
            """)
        tests.append(
            """
                @Test("GET lists \(n.words) records oldest first, a page at a time, with the total")
                func listAndPage() async throws {
                    try await withApp { client, _, resources in
                        for index in 0..<3 {
                            _ = try await resources.\(n.many).run(
                                Create\(n.type)(\(([createArguments(required, index: 0)].filter { !$0.isEmpty } + ["createdAt: Date(timeIntervalSince1970: Double(index))"]).joined(separator: ", "))))
                        }
                        try await client.execute(uri: "\(base)?limit=2&offset=1", method: .get) { response in
                            #expect(response.status == .ok)
                            let page = try decode(\(n.type)Page.self, response)
                            #expect(page.items.map(\\.createdAt) == [Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 2)])
                            #expect(page.total == 3)
                            #expect(page.limit == 2 && page.offset == 1)
                        }
                    }
                }
            """)
        if let search = n.spec.searchField {
            let searchable = fields.filter { !$0.optional || $0.name == search.name }
            tests.append(
                """
                    @Test("GET ?q= finds \(n.words) records whose \(search.name) contains the text, in the database")
                    func search() async throws {
                        try await withApp { client, _, resources in
                            for text in ["Milk", "Bread", "Oat milk"] {
                                _ = try await resources.\(n.many).run(Create\(n.type)(\(createArguments(searchable, index: 0, override: (search.name, "text")))))
                            }
                            try await client.execute(uri: "\(base)?q=Oat", method: .get) { response in
                                let page = try decode(\(n.type)Page.self, response)
                                #expect(page.items.map(\\.\(search.name)) == ["Oat milk"])
                                #expect(page.total == 1)
                            }
                        }
                    }
                """)
        }
        let others = fields.dropFirst()
        tests.append(
            """
                @Test("PATCH changes only the fields it sends")
                func update() async throws {
                    try await withApp { client, _, resources in
                        let created = try await resources.\(n.many).run(Create\(n.type)(\(createArguments(fields, index: 0))))
                        try await client.execute(
                            uri: "\(base)/\\(created.id.uuidString)", method: .patch, body: body(\(raw(sampleJSON([first], 1))))
                        ) { response in
                            #expect(response.status == .ok)
                            let changed = try decode(\(n.core).\(n.type).self, response)
                            #expect(changed.\(first.name) == \(sample(first.type, 1).swift))
                        }
                        let stored = try await resources.\(n.many).\(n.one)(id: created.id)
                        #expect(stored.\(first.name) == \(sample(first.type, 1).swift))
            \(expectations("stored", 0, Array(others), 12))        }
                }
            """)
        if let optional = fields.first(where: \.optional) {
            tests.append(
                """
                    @Test("PATCH with null clears an optional field")
                    func clear() async throws {
                        try await withApp { client, _, resources in
                            let created = try await resources.\(n.many).run(Create\(n.type)(\(createArguments(fields, index: 0))))
                            try await client.execute(
                                uri: "\(base)/\\(created.id.uuidString)", method: .patch, body: body(#"{"\(optional.name)": null}"#)
                            ) { response in
                                #expect(response.status == .ok)
                            }
                            let stored = try await resources.\(n.many).\(n.one)(id: created.id)
                            #expect(stored.\(optional.name) == nil)
                        }
                    }
                """)
        }
        tests.append(
            """
                @Test("DELETE removes the \(n.words); a second DELETE finds nothing")
                func delete() async throws {
                    try await withApp { client, _, resources in
                        let created = try await resources.\(n.many).run(Create\(n.type)(\(createArguments(required, index: 0))))
                        try await client.execute(uri: "\(base)/\\(created.id.uuidString)", method: .delete) { response in
                            #expect(response.status == .noContent)
                        }
                        let count = try await resources.\(n.many).records.count()
                        #expect(count == 0)
                        try await client.execute(uri: "\(base)/\\(created.id.uuidString)", method: .delete) { response in
                            #expect(response.status == .notFound)
                        }
                    }
                }
            """)
        tests.append(
            """
                @Test("a missing \(n.words) is a 404 problem naming its id")
                func missing() async throws {
                    try await withApp { client, _, _ in
                        let id = UUID().uuidString
                        for method in [HTTPRequest.Method.get, .delete] {
                            try await client.execute(uri: "\(base)/\\(id)", method: method) { response in
                                #expect(response.status == .notFound)
                                #expect(response.headers[.contentType] == "application/problem+json")
                                let problem = try decode(ProblemDetails.self, response)
                                #expect(problem.detail == "There is no \(n.words) with id '\\(id)'.")
                                #expect(problem.type.hasPrefix("urn:\(module.lowercased()):problem:"))
                            }
                        }
                        try await client.execute(uri: "\(base)/not-a-uuid", method: .patch, body: body("{}")) { response in
                            #expect(response.status == .notFound)
                        }
                    }
                }
            """)
        var badInputs = [("\"\"", "The field 'body' must be a JSON object.")]
        if let firstRequired = required.first {
            let rest = required.dropFirst()
            badInputs.append((raw(sampleJSON(Array(rest), 0)), "The field '\(firstRequired.name)' is required."))
        }
        if let text = required.first(where: { $0.type == .string }) {
            let json =
                "{"
                + required.map { "\"\($0.name)\": " + ($0.name == text.name ? "\"   \"" : sample($0.type, 0).json) }
                .joined(separator: ", ") + "}"
            badInputs.append((raw(json), "The field '\(text.name)' must not be blank."))
        }
        let badArguments = badInputs.map { "(\($0.0), \(SwiftSource.literal($0.1)))" }.joined(
            separator: ",\n                ")
        tests.append(
            """
                @Test(
                    "bad input is a 422 problem saying which field, and nothing is stored",
                    arguments: [
                        \(badArguments),
                    ])
                func badInput(json: String, detail: String) async throws {
                    try await withApp { client, _, resources in
                        try await client.execute(uri: "\(base)", method: .post, body: body(json)) { response in
                            #expect(response.status == .unprocessableContent)
                            let problem = try decode(ProblemDetails.self, response)
                            #expect(problem.status == 422 && problem.detail == detail)
                        }
                        let count = try await resources.\(n.many).records.count()
                        #expect(count == 0)
                    }
                }

                @Test("a body that is not JSON, and bad paging, are 422 problems")
                func unreadable() async throws {
                    try await withApp { client, _, _ in
                        try await client.execute(uri: "\(base)", method: .post, body: body("not json")) { response in
                            #expect(response.status == .unprocessableContent)
                            let problem = try decode(ProblemDetails.self, response)
                            #expect(problem.type == "urn:\(module.lowercased()):problem:invalid-body")
                        }
                        for query in ["limit=0", "limit=101", "offset=-1"] {
                            try await client.execute(uri: "\(base)?\\(query)", method: .get) { response in
                                #expect(response.status == .unprocessableContent)
                            }
                        }
                    }
                }

                @Test("a body over the route's limit is a 413 problem, not a server failure, and nothing is stored")
                func tooLarge() async throws {
                    try await withApp { client, _, resources in
                        let large = String(repeating: "a", count: 2 << 20)
                        try await client.execute(uri: "\(base)", method: .post, body: body(large)) { response in
                            #expect(response.status == .contentTooLarge)
                            let problem = try decode(ProblemDetails.self, response)
                            #expect(problem.status == 413 && problem.type == "urn:\(module.lowercased()):problem:content-too-large")
                        }
                        let count = try await resources.\(n.many).records.count()
                        #expect(count == 0)
                    }
                }
            """)
        return """
            import Foundation
            import Hummingbird
            import HummingbirdTesting
            import Testing

            @testable import \(n.core)

            // Written by `boiler add resource \(n.type) \(fieldList(n))`; yours to edit.
            @Suite("\(n.type) routes")
            struct \(n.type)RoutesTests {
            \(tests.joined(separator: "\n\n"))
            }

            """
    }

    /// `name: "Milk", count: 1` for `fields`, with one field's value replaced by an expression.
    static func createArguments(
        _ fields: [ResourceSpec.Field], index: Int, override: (field: String, expression: String)? = nil
    ) -> String {
        fields.map { field in
            let value = field.name == override?.field ? override?.expression ?? "" : sample(field.type, index).swift
            return "\(field.name): \(value)"
        }.joined(separator: ", ")
    }

    static func serverCommandTests(_ n: Names) -> String {
        let fields = n.spec.fields
        let required = fields.filter { !$0.optional }
        let first = fields[0]
        let blank = required.first { $0.type == .string }
        let blankTest =
            blank.map { text in
                """

                        await #expect(throws: \(n.error).invalidField(\(SwiftSource.literal(text.name)), reason: "must not be blank")) {
                            try await domain.run(Create\(n.type)(\(createArguments(required, index: 0, override: (text.name, "\" \\n\"")))))
                        }
                """
            } ?? ""
        return """
            import Boilerplate
            import Foundation
            import Testing

            @testable import \(n.core)

            // Written by `boiler add resource \(n.type) \(fieldList(n))`; yours to edit.
            @Suite("\(n.type) commands")
            struct \(n.type)CommandTests {
                /// Runs `test` with a domain over the `\(n.table)` table of a real SQLite file in a new temporary folder.
                func withDomain(_ test: (\(n.type)Domain) async throws -> Void) async throws {
                    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(n.module)Tests-\\(UUID())")
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    defer { try? FileManager.default.removeItem(at: folder) }
                    let database = try await \(n.module)Database.open(.sqlite(folder.appendingPathComponent("test.sqlite")))
                    let records = try await database.store(of: \(n.core).\(n.type).self, table: \(SwiftSource.literal(n.table)))
                    do {
                        try await test(\(n.type)Domain(records: records))
                    } catch {
                        try? await database.close()
                        throw error
                    }
                    try await database.close()
                }

                @Test("each command announces what it did on the bus")
                func events() async throws {
                    try await withDomain { domain in
                        let heard = Lines()
                        let tokens = [
                            domain.bus.watch(\(n.type)Created.self) { _ in heard.append("created") },
                            domain.bus.watch(\(n.type)Updated.self) { _ in heard.append("updated") },
                            domain.bus.watch(\(n.type)Deleted.self) { _ in heard.append("deleted") },
                        ]
                        let created = try await domain.run(Create\(n.type)(\(createArguments(required, index: 0))))
                        let updated = try await domain.run(Update\(n.type)(id: created.id, \(first.name): \(sample(first.type, 1).swift)))
                        #expect(updated.\(first.name) == \(sample(first.type, 1).swift))
                        try await domain.run(Delete\(n.type)(id: created.id))
                        #expect(heard.lines == ["created", "updated", "deleted"])
                        for token in tokens { token.cancel() }
                    }
                }

                @Test("a refused command stores nothing and announces nothing")
                func refused() async throws {
                    try await withDomain { domain in
                        let heard = Lines()
                        let token = domain.bus.watch(\(n.type)Created.self) { _ in heard.append("created") }
                        let missing = UUID()
                        await #expect(throws: \(n.error).notFound(\(SwiftSource.literal(n.words)), id: missing.uuidString)) {
                            try await domain.run(Update\(n.type)(id: missing, \(first.name): \(sample(first.type, 1).swift)))
                        }
                        await #expect(throws: \(n.error).notFound(\(SwiftSource.literal(n.words)), id: missing.uuidString)) {
                            try await domain.run(Delete\(n.type)(id: missing))
                        }\(blankTest)
                        let count = try await domain.records.count()
                        #expect(count == 0)
                        #expect(heard.lines.isEmpty)
                        token.cancel()
                    }
                }
            }

            /// Lines heard from the bus; `values` is only touched while `lock` is held.
            private final class Lines: @unchecked Sendable {
                private let lock = NSLock()
                private var values: [String] = []
                func append(_ line: String) { lock.withLock { values.append(line) } }
                var lines: [String] { lock.withLock { values } }
            }

            """
    }
}
