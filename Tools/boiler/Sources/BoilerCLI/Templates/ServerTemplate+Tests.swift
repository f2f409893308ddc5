// The test files of a server project.
extension ServerTemplate {
    static let postgresRoutesTests = """
        import Foundation
        import HummingbirdTesting
        import StoragePostgresTesting
        import Testing

        @testable import {{Name}}Core

        /// The routes against a real PostgreSQL: a throwaway server the test starts itself on
        /// 127.0.0.1 (the kit's StoragePostgresTesting; skipped, saying why, where PostgreSQL is not
        /// installed), or the database `TEST_DATABASE_URL` names. That database's `notes` table is
        /// emptied first: never point it at a database whose notes you want to keep.
        @Suite("Note routes on PostgreSQL")
        struct PostgresRoutesTests {
            @Test("create, filter, get and delete run in PostgreSQL")
            func roundTrip() async throws {
                try await withPostgres { url in
                    let database = try await {{Name}}Database.open(.postgres(url))
                    let existing = try await database.records.fetchAll()
                    try await database.records.write { batch in for note in existing { batch.delete(id: note.id) } }
                    try await withServer(database: database) { client, domain in
                        let note = try await create(client, #"{"text": "Milk", "pinned": true}"#)
                        _ = try await create(client, #"{"text": "Bread"}"#)
                        try await client.execute(uri: "/notes?pinned=true&q=Mil", method: .get) { response in
                            let page = try decode(NotePage.self, response)
                            #expect(page.items.map(\\.id) == [note.id])
                            #expect(page.total == 1)
                        }
                        try await client.execute(uri: "/notes/\\(note.id.uuidString)", method: .delete) { response in
                            #expect(response.status == .noContent)
                        }
                        let count = try await domain.records.count()
                        #expect(count == 1)
                    }
                }
            }

            @Test("two servers on one database behave as one: what one writes, the other serves")
            func twoInstances() async throws {
                try await withPostgres { url in
                    let first = try await {{Name}}Database.open(.postgres(url))
                    let second = try await {{Name}}Database.open(.postgres(url))
                    try await withServer(database: first) { one, _ in
                        try await withServer(database: second) { two, _ in
                            let note = try await create(one, #"{"text": "Shared"}"#)
                            try await two.execute(uri: "/notes/\\(note.id.uuidString)", method: .get) { response in
                                #expect(response.status == .ok)
                            }
                            try await two.execute(uri: "/notes/\\(note.id.uuidString)", method: .delete) { response in
                                #expect(response.status == .noContent)
                            }
                            try await one.execute(uri: "/notes/\\(note.id.uuidString)", method: .get) { response in
                                #expect(response.status == .notFound)
                            }
                        }
                    }
                }
            }
        }

        /// Runs `body` with the URL of a PostgreSQL database for tests: `TEST_DATABASE_URL` when
        /// set, else a fresh server on 127.0.0.1 that is stopped and deleted afterwards.
        func withPostgres(_ body: (URL) async throws -> Void) async throws {
            if let text = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"] {
                try await body(try #require(URL(string: text), "TEST_DATABASE_URL is not a URL"))
            } else {
                try await PostgresTestServer.with { server in try await body(server.url) }
            }
        }

        """

    static let testServer = """
        import Foundation
        import Hummingbird
        import HummingbirdTesting
        import Logging
        import Testing

        @testable import {{Name}}Core

        /// Runs `test` against the real router over a real SQLite file in a new temporary folder,
        /// removed afterwards.
        func withServer(_ test: @Sendable (any TestClientProtocol, NoteDomain) async throws -> Void) async throws {
            try await withApp { client, domain, _ in try await test(client, domain) }
        }

        /// Runs `test` against the real router over `database`, then closes it.
        func withServer(
            database: {{Name}}Database, _ test: @Sendable (any TestClientProtocol, NoteDomain) async throws -> Void
        ) async throws {
            try await withApp(database: database) { client, domain, _ in try await test(client, domain) }
        }

        /// Runs `test` against the real router, with the notes and the resources added with
        /// `boiler add resource`, over a real SQLite file in a new temporary folder, removed afterwards.
        func withApp(
            _ test: @Sendable (any TestClientProtocol, NoteDomain, {{Name}}Resources) async throws -> Void
        ) async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("{{Name}}Tests-\\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let database = try await {{Name}}Database.open(.sqlite(folder.appendingPathComponent("notes.sqlite")))
            try await withApp(database: database, test)
        }

        /// Runs `test` against the real router over `database`, then closes it.
        func withApp(
            database: {{Name}}Database,
            _ test: @Sendable (any TestClientProtocol, NoteDomain, {{Name}}Resources) async throws -> Void
        ) async throws {
            let domain = NoteDomain(records: database.records)
            do {
                let resources = try await {{Name}}Resources.open(in: database, bus: domain.bus)
                let app = {{Name}}Server.application(
                    domain: domain, resources: resources, port: 0, logger: Logger(label: "{{Name}}Tests"))
                try await app.test(.router) { client in try await test(client, domain, resources) }
            } catch {
                try? await database.close()
                throw error
            }
            try await database.close()
        }

        /// A JSON request body.
        func body(_ json: String) -> ByteBuffer { ByteBuffer(string: json) }

        /// Decodes a response body written by the server.
        func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(type, from: Data(response.body.readableBytesView))
        }

        /// Creates a note through the API and returns it.
        func create(_ client: any TestClientProtocol, _ json: String) async throws -> Note {
            try await client.execute(uri: "/notes", method: .post, body: body(json)) { response in
                #expect(response.status == .created)
                return try decode(Note.self, response)
            }
        }

        """

    static let noteRoutesTests = """
        import Foundation
        import Hummingbird
        import HummingbirdTesting
        import Testing

        @testable import {{Name}}Core

        @Suite("Note routes")
        struct NoteRoutesTests {
            @Test("POST creates a note that GET returns, with its Location")
            func createAndGet() async throws {
                try await withServer { client, _ in
                    let location = try await client.execute(uri: "/notes", method: .post, body: body(#"{"text": "Milk"}"#)) {
                        response in
                        #expect(response.status == .created)
                        let note = try decode(Note.self, response)
                        #expect(note.text == "Milk")
                        #expect(!note.pinned)
                        #expect(response.headers[.location] == "/notes/\\(note.id.uuidString)")
                        return response.headers[.location] ?? ""
                    }
                    try await client.execute(uri: location, method: .get) { response in
                        #expect(response.status == .ok)
                        let fetched = try decode(Note.self, response)
                        #expect(fetched.text == "Milk")
                    }
                }
            }

            @Test("GET lists notes oldest first, a page at a time, with the total")
            func listAndPage() async throws {
                try await withServer { client, _ in
                    for text in ["one", "two", "three", "four", "five"] {
                        _ = try await create(client, #"{"text": "\\#(text)"}"#)
                    }
                    try await client.execute(uri: "/notes?limit=2&offset=1", method: .get) { response in
                        #expect(response.status == .ok)
                        let page = try decode(NotePage.self, response)
                        #expect(page.items.map(\\.text) == ["two", "three"])
                        #expect(page.total == 5)
                        #expect(page.limit == 2 && page.offset == 1)
                    }
                    try await client.execute(uri: "/notes?offset=4", method: .get) { response in
                        let page = try decode(NotePage.self, response)
                        #expect(page.items.map(\\.text) == ["five"])
                    }
                }
            }

            @Test("GET filters by text and by pin in the database")
            func filter() async throws {
                try await withServer { client, _ in
                    _ = try await create(client, #"{"text": "Buy milk", "pinned": true}"#)
                    _ = try await create(client, #"{"text": "Call Ana"}"#)
                    _ = try await create(client, #"{"text": "Milk the cow"}"#)
                    try await client.execute(uri: "/notes?q=milk", method: .get) { response in
                        let page = try decode(NotePage.self, response)
                        #expect(page.items.map(\\.text) == ["Buy milk"])
                        #expect(page.total == 1)
                    }
                    try await client.execute(uri: "/notes?pinned=false", method: .get) { response in
                        let page = try decode(NotePage.self, response)
                        #expect(page.items.map(\\.text) == ["Call Ana", "Milk the cow"])
                    }
                }
            }

            @Test("PATCH changes only the fields it sends")
            func update() async throws {
                try await withServer { client, domain in
                    let note = try await create(client, #"{"text": "Milk"}"#)
                    try await client.execute(
                        uri: "/notes/\\(note.id.uuidString)", method: .patch, body: body(#"{"pinned": true}"#)
                    ) {
                        response in
                        #expect(response.status == .ok)
                        let changed = try decode(Note.self, response)
                        #expect(changed.pinned && changed.text == "Milk")
                    }
                    let stored = try await domain.note(id: note.id)
                    #expect(stored.pinned && stored.text == "Milk")
                }
            }

            @Test("DELETE removes the note; a second DELETE finds nothing")
            func delete() async throws {
                try await withServer { client, domain in
                    let note = try await create(client, #"{"text": "Milk"}"#)
                    try await client.execute(uri: "/notes/\\(note.id.uuidString)", method: .delete) { response in
                        #expect(response.status == .noContent)
                    }
                    let count = try await domain.records.count()
                    #expect(count == 0)
                    try await client.execute(uri: "/notes/\\(note.id.uuidString)", method: .delete) { response in
                        #expect(response.status == .notFound)
                    }
                }
            }
        }

        """

    static let problemResponseTests = """
        import Foundation
        import Hummingbird
        import HummingbirdTesting
        import Testing

        @testable import {{Name}}Core

        @Suite("Problem details")
        struct ProblemResponseTests {
            @Test("a missing note is a 404 problem naming its id")
            func missingNote() async throws {
                try await withServer { client, _ in
                    let id = UUID().uuidString
                    for method in [HTTPRequest.Method.get, .delete] {
                        try await client.execute(uri: "/notes/\\(id)", method: method) { response in
                            #expect(response.status == .notFound)
                            #expect(response.headers[.contentType] == "application/problem+json")
                            let problem = try decode(ProblemDetails.self, response)
                            #expect(problem.status == 404 && problem.title == "Not Found")
                            #expect(problem.detail == "There is no note with id '\\(id)'.")
                            #expect(problem.type.hasPrefix("urn:{{name}}:problem:"))
                        }
                    }
                    try await client.execute(uri: "/notes/\\(id)", method: .patch, body: body(#"{"text": "x"}"#)) { response in
                        #expect(response.status == .notFound)
                    }
                    try await client.execute(uri: "/notes/not-a-uuid", method: .get) { response in
                        let problem = try decode(ProblemDetails.self, response)
                        #expect(problem.detail == "There is no note with id 'not-a-uuid'.")
                    }
                }
            }

            @Test(
                "bad input is a 422 problem saying which field, and nothing is stored",
                arguments: [
                    (#"{"text": "   "}"#, "The field 'text' must not be blank."),
                    (#"{"pinned": true}"#, "The field 'text' is required."),
                    ("", "The field 'body' must be a JSON object."),
                ])
            func badInput(json: String, detail: String) async throws {
                try await withServer { client, domain in
                    try await client.execute(uri: "/notes", method: .post, body: body(json)) { response in
                        #expect(response.status == .unprocessableContent)
                        let problem = try decode(ProblemDetails.self, response)
                        #expect(problem.status == 422 && problem.detail == detail)
                    }
                    let count = try await domain.records.count()
                    #expect(count == 0)
                }
            }

            @Test("a body that is not a note's JSON is a 422 problem")
            func unreadableBody() async throws {
                try await withServer { client, _ in
                    for json in [#"{"text": 42}"#, "not json"] {
                        try await client.execute(uri: "/notes", method: .post, body: body(json)) { response in
                            #expect(response.status == .unprocessableContent)
                            let problem = try decode(ProblemDetails.self, response)
                            #expect(problem.type == "urn:{{name}}:problem:invalid-body")
                        }
                    }
                }
            }

            @Test("a body over the route's limit is a 413 problem, not a server failure, and nothing is stored")
            func tooLarge() async throws {
                try await withServer { client, domain in
                    let large = #"{"text": ""# + String(repeating: "a", count: 2 << 20) + #""}"#
                    for (uri, method) in [("/notes", HTTPRequest.Method.post), ("/notes/\\(UUID().uuidString)", .patch)] {
                        try await client.execute(uri: uri, method: method, body: body(large)) { response in
                            #expect(response.status == .contentTooLarge)
                            #expect(response.headers[.contentType] == "application/problem+json")
                            let problem = try decode(ProblemDetails.self, response)
                            #expect(problem.status == 413 && problem.title == "Content Too Large")
                            #expect(problem.type == "urn:{{name}}:problem:content-too-large")
                        }
                    }
                    let count = try await domain.records.count()
                    #expect(count == 0)
                }
            }

            @Test(
                "bad paging and filter parameters are 422 problems",
                arguments: [
                    ("limit=0", "limit"), ("limit=101", "limit"), ("limit=ten", "limit"), ("offset=-1", "offset"),
                    ("pinned=yes", "pinned"),
                ])
            func badQuery(query: String, field: String) async throws {
                try await withServer { client, _ in
                    try await client.execute(uri: "/notes?\\(query)", method: .get) { response in
                        #expect(response.status == .unprocessableContent)
                        let problem = try decode(ProblemDetails.self, response)
                        #expect(problem.detail.hasPrefix("The field '\\(field)' must be"))
                    }
                }
            }

            @Test("an update that blanks the text is refused and the note keeps its text")
            func blankUpdate() async throws {
                try await withServer { client, domain in
                    let note = try await create(client, #"{"text": "Milk"}"#)
                    try await client.execute(uri: "/notes/\\(note.id.uuidString)", method: .patch, body: body(#"{"text": ""}"#))
                    {
                        response in
                        #expect(response.status == .unprocessableContent)
                    }
                    let stored = try await domain.note(id: note.id)
                    #expect(stored.text == "Milk")
                }
            }
        }

        """

    static let noteCommandTests = """
        import Boilerplate
        import Foundation
        import Testing

        @testable import {{Name}}Core

        @Suite("Note commands")
        struct NoteCommandTests {
            /// Runs `test` with a domain over a real SQLite file in a new temporary folder.
            func withDomain(_ test: (NoteDomain) async throws -> Void) async throws {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("{{Name}}Tests-\\(UUID())")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                let database = try await {{Name}}Database.open(.sqlite(folder.appendingPathComponent("notes.sqlite")))
                try await test(NoteDomain(records: database.records))
            }

            @Test("each command announces what it did on the bus")
            func events() async throws {
                try await withDomain { domain in
                    let heard = Heard()
                    let tokens = [
                        domain.bus.watch(NoteCreated.self) { heard.append("created \\($0.note.text)") },
                        domain.bus.watch(NoteUpdated.self) { heard.append("updated \\($0.note.text)") },
                        domain.bus.watch(NoteDeleted.self) { _ in heard.append("deleted") },
                    ]
                    let note = try await domain.run(CreateNote(text: "Milk"))
                    try await domain.run(UpdateNote(id: note.id, text: "Oat milk"))
                    try await domain.run(DeleteNote(id: note.id))
                    #expect(heard.lines == ["created Milk", "updated Oat milk", "deleted"])
                    for token in tokens { token.cancel() }
                }
            }

            @Test("a refused command stores nothing and announces nothing")
            func refused() async throws {
                try await withDomain { domain in
                    let heard = Heard()
                    let token = domain.bus.watch(NoteCreated.self) { heard.append("created \\($0.note.text)") }
                    await #expect(throws: {{Name}}Error.invalidField("text", reason: "must not be blank")) {
                        try await domain.run(CreateNote(text: " \\n"))
                    }
                    let missing = UUID()
                    await #expect(throws: {{Name}}Error.noteNotFound(id: missing.uuidString)) {
                        try await domain.run(UpdateNote(id: missing, pinned: true))
                    }
                    let count = try await domain.records.count()
                    #expect(count == 0)
                    #expect(heard.lines.isEmpty)
                    token.cancel()
                }
            }

            @Test("settings come from the environment and --port; a bad value names its variable")
            func settings() throws {
                let settings = try {{Name}}Settings(
                    environment: ["PORT": "9000", "DATABASE_PATH": "/tmp/n.sqlite", "LOG_LEVEL": "debug"],
                    arguments: ["{{Name}}", "--port", "0"])
                #expect(settings.port == 0)
                #expect(settings.logLevel == .debug)
                #expect(settings.database == .sqlite(URL(fileURLWithPath: "/tmp/n.sqlite")))
                #expect(try {{Name}}Settings(environment: [:]).port == 8080)
                #expect(throws: {{Name}}Error.invalidField("PORT", reason: "must be a port number from 0 to 65535, not 'http'")) {
                    try {{Name}}Settings(environment: ["PORT": "http"])
                }
                #expect(throws: {{Name}}Error.self) { try {{Name}}Settings(environment: ["LOG_LEVEL": "loud"]) }
            }
        }

        /// Lines heard from the bus; `values` is only touched while `lock` is held.
        final class Heard: @unchecked Sendable {
            private let lock = NSLock()
            private var values: [String] = []
            func append(_ line: String) { lock.withLock { values.append(line) } }
            var lines: [String] { lock.withLock { values } }
        }

        """
}
