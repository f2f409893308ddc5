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
            PlannedFile("Sources/{{Name}}/main.swift", executable),
            PlannedFile("Tests/{{Name}}CoreTests/TestServer.swift", testServer),
            PlannedFile("Tests/{{Name}}CoreTests/NoteRoutesTests.swift", noteRoutesTests),
            PlannedFile("Tests/{{Name}}CoreTests/ProblemResponseTests.swift", problemResponseTests),
            PlannedFile("Tests/{{Name}}CoreTests/NoteCommandTests.swift", noteCommandTests),
        ] + (postgres ? [PlannedFile("Tests/{{Name}}CoreTests/PostgresRoutesTests.swift", postgresRoutesTests)] : [])
    }

    /// The manifest; a PostgreSQL project also depends on the kit's `StoragePostgres` add-on.
    static func manifest(postgres: Bool) -> String {
        let product =
            postgres ? "\n                .product(name: \"StoragePostgres\", package: \"{{kitIdentity}}\")," : ""
        return manifestText.replacingOccurrences(of: "{{postgresProduct}}", with: product)
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
                    dependencies: ["{{Name}}Core", .product(name: "HummingbirdTesting", package: "hummingbird")]
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

            /// Opens the database, creating the file and its table when missing.
            public static func open(_ location: Location) async throws -> {{Name}}Database {
                switch location {
                case .sqlite(let url): {{Name}}Database(records: try RecordStore(sqlite: url, table: "notes"))
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
            private let postgres: PostgresRecordBackend<Note>?

            /// Opens the database, creating its table when missing.
            public static func open(_ location: Location) async throws -> {{Name}}Database {
                switch location {
                case .sqlite(let url):
                    return {{Name}}Database(records: try RecordStore(sqlite: url, table: "notes"), postgres: nil)
                case .postgres(let url):
                    let backend = try await PostgresRecordBackend<Note>(url: url, table: "notes")
                    return {{Name}}Database(records: RecordStore(backend: backend), postgres: backend)
                }
            }

            /// Closes the database's connections.
            public func close() async throws {
                try await postgres?.shutdown()
            }
        }

        """

    static let postgresRoutesTests = """
        import Foundation
        import HummingbirdTesting
        import Testing

        @testable import {{Name}}Core

        /// The routes against a real PostgreSQL server, when `TEST_DATABASE_URL` names one. The test
        /// empties the `notes` table first: never point it at a database whose notes you want to keep.
        @Suite("Note routes on PostgreSQL", .enabled(if: ProcessInfo.processInfo.environment["TEST_DATABASE_URL"] != nil))
        struct PostgresRoutesTests {
            @Test("create, filter, get and delete run in PostgreSQL")
            func roundTrip() async throws {
                let text = try #require(ProcessInfo.processInfo.environment["TEST_DATABASE_URL"])
                let url = try #require(URL(string: text))
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

        """

    static let noteHumanFile = """
        // Note.swift: yours to edit. The generated part of Note comes from Designs/Model.xcdatamodeld at
        // build time; add behaviour, versioning and the fields queries may use here.
        import Boilerplate
        import Foundation

        extension Note: Identifiable, Versioned, QueryableRecord {
            /// The version stamped on saved notes. When the design's stored shape changes
            /// (`Note.modelVersionHash`), raise it and add a migration from the previous version.
            public static let version = 1

            /// Steps that rewrite notes saved by older versions, oldest first.
            public static let migrations: [Migration] = []

            /// The fields the database filters and sorts on; each is a column with an index.
            public static let queryableFields: [QueryField<Note>] = [
                QueryField(\\.text, "text"), QueryField(\\.pinned, "pinned"), QueryField(\\.createdAt, "created_at"),
            ]
        }

        """

    static let domainError = """
        import Boilerplate

        /// What goes wrong in {{Name}}'s domain. The HTTP layer turns each case into problem details
        /// (RFC 9457) with the status ``status``.
        public enum {{Name}}Error: AppError, Equatable {
            /// There is no note with this id.
            case noteNotFound(id: String)
            /// A field of a request is missing or not acceptable.
            case invalidField(_ field: String, reason: String)

            /// A sentence for the person who sent the request.
            public var message: String {
                switch self {
                case .noteNotFound(let id): "There is no note with id '\\(id)'."
                case .invalidField(let field, let reason): "The field '\\(field)' \\(reason)."
                }
            }

            /// The HTTP status the error stands for: 404 for a missing note, 422 for bad input.
            public var status: Int {
                switch self {
                case .noteNotFound: 404
                case .invalidField: 422
                }
            }
        }

        """

    static let noteEvents = """
        import Boilerplate
        import Foundation

        /// Triggered on the bus after a note was created.
        public struct NoteCreated: Event {
            /// The note as stored.
            public var note: Note
        }

        /// Triggered on the bus after a note was changed.
        public struct NoteUpdated: Event {
            /// The note as stored now.
            public var note: Note
        }

        /// Triggered on the bus after a note was deleted.
        public struct NoteDeleted: Event {
            /// The deleted note's id.
            public var id: UUID
        }

        """

    static let noteCommands = """
        import Boilerplate
        import Foundation

        /// A change to the notes: the only way a note is created, changed or deleted. A command checks
        /// its input, writes through the ``NoteDomain``'s record store and announces what it did on the bus.
        public protocol NoteCommand: Sendable {
            /// What running the command gives back.
            associatedtype Result: Sendable
            /// Runs the command against `domain`.
            func run(in domain: NoteDomain) async throws -> Result
        }

        /// The longest text a note may hold, in characters.
        public let maximumNoteLength = 10_000

        /// Checks a note's text: not blank and not too long.
        func checkedText(_ text: String) throws({{Name}}Error) -> String {
            guard !text.allSatisfy(\\.isWhitespace) else { throw .invalidField("text", reason: "must not be blank") }
            guard text.count <= maximumNoteLength else {
                throw .invalidField("text", reason: "must be at most \\(maximumNoteLength) characters long")
            }
            return text
        }

        /// Creates a note. The id and date are inputs, so a test can name them.
        public struct CreateNote: NoteCommand {
            /// The note's text; it must not be blank.
            public var text: String
            /// Whether the note starts pinned.
            public var pinned: Bool
            /// The new note's id.
            public var id: UUID
            /// When the note was written.
            public var createdAt: Date

            /// Creates the command; the id and date default to new ones.
            public init(text: String, pinned: Bool = false, id: UUID = UUID(), createdAt: Date = Date()) {
                self.text = text
                self.pinned = pinned
                self.id = id
                self.createdAt = createdAt
            }

            /// Stores the note and triggers ``NoteCreated``.
            public func run(in domain: NoteDomain) async throws -> Note {
                let note = Note(createdAt: createdAt, id: id, pinned: pinned, text: try checkedText(text))
                try await domain.records.insert(note)
                domain.bus.trigger(NoteCreated(note: note))
                return note
            }
        }

        /// Changes a note's text, its pin, or both; a nil field keeps its value.
        public struct UpdateNote: NoteCommand {
            /// The note to change.
            public var id: UUID
            /// The new text, if it changes.
            public var text: String?
            /// The new pin, if it changes.
            public var pinned: Bool?

            /// Creates the command.
            public init(id: UUID, text: String? = nil, pinned: Bool? = nil) {
                self.id = id
                self.text = text
                self.pinned = pinned
            }

            /// Stores the changed note and triggers ``NoteUpdated``.
            public func run(in domain: NoteDomain) async throws -> Note {
                guard var note = try await domain.records.fetch(id: id) else {
                    throw {{Name}}Error.noteNotFound(id: id.uuidString)
                }
                if let text { note.text = try checkedText(text) }
                if let pinned { note.pinned = pinned }
                do {
                    try await domain.records.update(note)
                } catch StorageError.recordNotFound {
                    // Another instance deleted it between the read and the write.
                    throw {{Name}}Error.noteNotFound(id: id.uuidString)
                }
                domain.bus.trigger(NoteUpdated(note: note))
                return note
            }
        }

        /// Deletes a note.
        public struct DeleteNote: NoteCommand {
            /// The note to delete.
            public var id: UUID

            /// Creates the command.
            public init(id: UUID) { self.id = id }

            /// Deletes the note and triggers ``NoteDeleted``, or throws when there is no such note.
            public func run(in domain: NoteDomain) async throws {
                guard try await domain.records.fetch(id: id) != nil else {
                    throw {{Name}}Error.noteNotFound(id: id.uuidString)
                }
                try await domain.records.delete(id: id)
                domain.bus.trigger(NoteDeleted(id: id))
            }
        }

        """

    static let noteDomain = """
        import Boilerplate
        import Foundation

        /// {{Name}}'s domain: the notes in their record store and the bus their events go to.
        ///
        /// It holds nothing but these two: every answer comes from the database, so several server
        /// instances over one database behave as one.
        public struct NoteDomain: Sendable {
            /// Where the notes are kept (SQLite or PostgreSQL).
            public let records: RecordStore<Note>
            /// Where commands announce what they did.
            public let bus: Bus

            /// A domain over `records`, announcing on `bus`.
            public init(records: RecordStore<Note>, bus: Bus = Bus()) {
                self.records = records
                self.bus = bus
            }

            /// Runs a command: the only way notes change.
            @discardableResult
            public func run<C: NoteCommand>(_ command: C) async throws -> C.Result {
                try await command.run(in: self)
            }

            /// The note with `id`.
            /// - Throws: ``{{Name}}Error/noteNotFound(id:)`` when there is none.
            public func note(id: UUID) async throws -> Note {
                guard let note = try await records.fetch(id: id) else { throw {{Name}}Error.noteNotFound(id: id.uuidString) }
                return note
            }

            /// One page of notes, oldest first, filtered in the database.
            /// - Parameters:
            ///   - containing: Only notes whose text contains this.
            ///   - pinned: Only notes pinned (true) or not (false).
            ///   - limit: At most this many notes.
            ///   - offset: After skipping this many.
            public func notes(containing: String? = nil, pinned: Bool? = nil, limit: Int, offset: Int) async throws -> NotePage
            {
                var filter = RecordPredicate<Note>.all
                if let containing { filter = filter && .contains(\\.text, containing) }
                if let pinned { filter = filter && \\.pinned == pinned }
                let items = try await records.fetch(where: filter, sortedBy: \\.createdAt, limit: limit, offset: offset)
                let total = try await records.count(where: filter)
                return NotePage(items: items, total: total, limit: limit, offset: offset)
            }
        }

        /// One page of a list of notes.
        public struct NotePage: Codable, Sendable, Equatable {
            /// The notes on this page.
            public var items: [Note]
            /// How many notes match the filter, on every page.
            public var total: Int
            /// The page size asked for.
            public var limit: Int
            /// How many matching notes come before this page.
            public var offset: Int
        }

        """

    static let problemDetails = """
        import Boilerplate
        import Foundation
        import Hummingbird

        /// An error as an HTTP response body: problem details (RFC 9457), `application/problem+json`.
        public struct ProblemDetails: Codable, Sendable, Equatable {
            /// A URI naming the kind of problem; the kit's error code makes it stable.
            public var type: String
            /// A short summary of the kind of problem.
            public var title: String
            /// The HTTP status.
            public var status: Int
            /// What went wrong this time, in words.
            public var detail: String

            /// Creates problem details.
            public init(type: String, title: String, status: Int, detail: String) {
                self.type = type
                self.title = title
                self.status = status
                self.detail = detail
            }

            /// The problem details of any error: the domain's typed errors keep their status (404, 422),
            /// unreadable input is 422, and anything else is a 500 whose detail hides the cause.
            public init(_ error: any Error) {
                switch error {
                case let error as {{Name}}Error:
                    self.init(
                        type: "urn:{{name}}:problem:\\(error.code)", title: Self.title(error.status), status: error.status,
                        detail: error.message)
                case let error as DecodingError:
                    self.init(
                        type: "urn:{{name}}:problem:invalid-body", title: Self.title(422), status: 422,
                        detail: "The request body is not a valid note: \\(error.userMessage)")
                default:
                    self.init(
                        type: "about:blank", title: Self.title(500), status: 500,
                        detail: "The server could not answer; the log says why.")
                }
            }

            static func title(_ status: Int) -> String {
                switch status {
                case 404: "Not Found"
                case 422: "Unprocessable Content"
                default: "Internal Server Error"
                }
            }

            /// The response carrying these details.
            public var response: Response {
                let data = (try? JSONEncoder.{{name}}.encode(self)) ?? Data()
                return Response(
                    status: .init(code: status), headers: [.contentType: "application/problem+json"],
                    body: .init(byteBuffer: ByteBuffer(bytes: data)))
            }
        }

        extension JSONEncoder {
            /// How {{Name}} writes JSON: dates in ISO 8601, keys sorted.
            static var {{name}}: JSONEncoder {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                return encoder
            }
        }

        """

    static let noteRoutes = """
        import Boilerplate
        import Foundation
        import Hummingbird

        /// The REST routes of the `Note` resource:
        ///
        /// | Method and path     | Does                                                          |
        /// |---------------------|---------------------------------------------------------------|
        /// | `GET /notes`        | a page: `?limit=` (1…100, default 20), `?offset=`, `?q=` (text contains), `?pinned=true/false` |
        /// | `GET /notes/:id`    | one note                                                      |
        /// | `POST /notes`       | creates from `{"text": …, "pinned": …}`; 201 with `Location`  |
        /// | `PATCH /notes/:id`  | changes `text` and/or `pinned`                                |
        /// | `DELETE /notes/:id` | deletes; 204                                                  |
        ///
        /// Errors are problem details (RFC 9457): 404 for a missing note, 422 for bad input.
        public enum NoteRoutes {
            /// The largest page a list may ask for.
            public static let maximumLimit = 100
            /// The page size when a list does not ask for one.
            public static let defaultLimit = 20

            /// Adds the routes to `router`; every request goes to `domain`.
            public static func add(to router: Router<BasicRequestContext>, domain: NoteDomain) {
                let notes = router.group("notes")
                notes.get { request, context in
                    await answer(context) {
                        let query = request.uri.queryParameters
                        let limit = try integer(query["limit"], "limit", default: defaultLimit, in: 1...maximumLimit)
                        let offset = try integer(query["offset"], "offset", default: 0, in: 0...Int.max)
                        let pinned = try flag(query["pinned"], "pinned")
                        let page = try await domain.notes(
                            containing: query["q"].map(String.init), pinned: pinned, limit: limit, offset: offset)
                        return try json(page)
                    }
                }
                notes.get(":id") { _, context in
                    await answer(context) { try json(try await domain.note(id: try noteID(context))) }
                }
                notes.post { request, context in
                    await answer(context) {
                        let input = try await NoteInput(request)
                        guard let text = input.text else { throw {{Name}}Error.invalidField("text", reason: "is required") }
                        let note = try await domain.run(CreateNote(text: text, pinned: input.pinned ?? false))
                        var response = try json(note, status: .created)
                        response.headers[.location] = "/notes/\\(note.id.uuidString)"
                        return response
                    }
                }
                notes.patch(":id") { request, context in
                    await answer(context) {
                        let id = try noteID(context)
                        let input = try await NoteInput(request)
                        return try json(try await domain.run(UpdateNote(id: id, text: input.text, pinned: input.pinned)))
                    }
                }
                notes.delete(":id") { _, context in
                    await answer(context) {
                        try await domain.run(DeleteNote(id: try noteID(context)))
                        return Response(status: .noContent)
                    }
                }
            }

            /// What `POST` and `PATCH` read; a missing field is nil.
            struct NoteInput: Decodable {
                var text: String?
                var pinned: Bool?

                init(_ request: Request) async throws {
                    let body = try await request.body.collect(upTo: maximumNoteLength * 4 + 1024)
                    guard body.readableBytes > 0 else { throw {{Name}}Error.invalidField("body", reason: "must be a JSON object") }
                    self = try JSONDecoder().decode(NoteInput.self, from: Data(body.readableBytesView))
                }
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
                let data = try JSONEncoder.{{name}}.encode(value)
                return Response(
                    status: status, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(bytes: data)))
            }

            /// The `:id` of the path; one that is not a UUID names no note.
            static func noteID(_ context: BasicRequestContext) throws -> UUID {
                let raw = context.parameters.get("id") ?? ""
                guard let id = UUID(uuidString: raw) else { throw {{Name}}Error.noteNotFound(id: raw) }
                return id
            }

            static func integer(_ raw: Substring?, _ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int
            {
                guard let raw else { return value }
                guard let number = Int(raw), range.contains(number) else {
                    let bounds =
                        range.upperBound == Int.max
                        ? "\\(range.lowerBound) or more" : "from \\(range.lowerBound) to \\(range.upperBound)"
                    throw {{Name}}Error.invalidField(name, reason: "must be a whole number \\(bounds), not '\\(raw)'")
                }
                return number
            }

            static func flag(_ raw: Substring?, _ name: String) throws -> Bool? {
                switch raw {
                case nil: nil
                case "true": true
                case "false": false
                case let raw?: throw {{Name}}Error.invalidField(name, reason: "must be true or false, not '\\(raw)'")
                }
            }
        }

        """

    static let activityLog = """
        import Boilerplate
        import Foundation

        /// A service that logs every note event on the bus while it runs: an example of a kit
        /// service running beside the HTTP server, started and stopped by the service registry.
        public final class NoteActivityLog: AppService, @unchecked Sendable {
            private let bus: Bus
            private let log: LogSink
            // Only touched while `lock` is held.
            private let lock = NSLock()
            private var subscriptions = Subscriptions()

            /// A log of `bus`'s note events, written to `log`.
            public init(bus: Bus, log: LogSink) {
                self.bus = bus
                self.log = log
            }

            /// Starts listening.
            public func start(options: [String: any Sendable]) async throws {
                let log = log
                let tokens = [
                    bus.watch(NoteCreated.self) {
                        log.log(.info, "Note created", metadata: ["id": $0.note.id.uuidString], source: "{{Name}}")
                    },
                    bus.watch(NoteUpdated.self) {
                        log.log(.info, "Note updated", metadata: ["id": $0.note.id.uuidString], source: "{{Name}}")
                    },
                    bus.watch(NoteDeleted.self) {
                        log.log(.info, "Note deleted", metadata: ["id": $0.id.uuidString], source: "{{Name}}")
                    },
                ]
                lock.withLock { for token in tokens { token.store(in: &subscriptions) } }
            }

            /// Stops listening.
            public func stop() async throws {
                lock.withLock { subscriptions = Subscriptions() }
            }
        }

        """

    static let serverFactory = """
        import Boilerplate
        import BoilerplateLogging
        import Foundation
        import Hummingbird
        import Logging

        /// Builds {{Name}}'s HTTP application: the router with the note routes over a ``NoteDomain``.
        public enum {{Name}}Server {
            /// The router: `GET /health` and the ``NoteRoutes``.
            public static func router(domain: NoteDomain) -> Router<BasicRequestContext> {
                let router = Router()
                router.get("health") { _, _ in "ok" }
                NoteRoutes.add(to: router, domain: domain)
                return router
            }

            /// The Hummingbird application serving `domain` at `host`:`port` (0 picks a free port).
            /// `onRunning` is called with the port once the server listens.
            public static func application(
                domain: NoteDomain, host: String = "127.0.0.1", port: Int = 8080, logger: Logger,
                onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
            ) -> some ApplicationProtocol {
                Application(
                    router: router(domain: domain),
                    configuration: .init(address: .hostname(host, port: port), serverName: "{{Name}}"),
                    onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
                    logger: logger)
            }
        }

        /// Where {{Name}} runs, read from the environment and the command line.
        public struct {{Name}}Settings: Sendable, Equatable {
            /// The interface to listen on: `HOST`, default `127.0.0.1`.
            public var host: String
            /// The port: `--port N` or `PORT`, default 8080; 0 picks a free one.
            public var port: Int
            /// The log level: `LOG_LEVEL` (trace, debug, info, notice, warning, error, critical), default info.
            public var logLevel: Logger.Level
            /// Where the records are kept.
            public var database: {{Name}}Database.Location

            /// Reads the settings.
            /// - Throws: ``{{Name}}Error/invalidField(_:reason:)`` naming the variable or option that is wrong.
            public init(environment: [String: String], arguments: [String] = []) throws({{Name}}Error) {
                host = environment["HOST"] ?? "127.0.0.1"
                var portText = environment["PORT"]
                if let index = arguments.firstIndex(of: "--port") {
                    guard index + 1 < arguments.count else { throw .invalidField("--port", reason: "needs a port number") }
                    portText = arguments[index + 1]
                }
                if let portText {
                    guard let port = Int(portText), (0...65535).contains(port) else {
                        throw .invalidField("PORT", reason: "must be a port number from 0 to 65535, not '\\(portText)'")
                    }
                    self.port = port
                } else {
                    port = 8080
                }
                let level = environment["LOG_LEVEL"] ?? "info"
                guard let logLevel = Logger.Level(rawValue: level) else {
                    throw .invalidField(
                        "LOG_LEVEL", reason: "must be trace, debug, info, notice, warning, error or critical, not '\\(level)'")
                }
                self.logLevel = logLevel
                database = try {{Name}}Database.Location(environment: environment)
            }
        }

        """

    static let executable = """
        import Boilerplate
        import BoilerplateLogging
        import BoilerplateServiceLifecycle
        import Foundation
        import Logging
        import ServiceLifecycle
        import {{Name}}Core

        // Runs {{Name}} until SIGTERM or SIGINT: the HTTP server and the kit's services in one service
        // group, which shuts both down gracefully (requests in flight finish) before the database closes.
        // Exit codes: 0 after a graceful shutdown, 64 for bad settings, 1 for a failure.
        func serve() async -> Int32 {
            LoggingSystem.bootstrap(StreamLogHandler.standardError)
            var logger = Logger(label: "{{Name}}")
            let settings: {{Name}}Settings
            do {
                settings = try {{Name}}Settings(
                    environment: ProcessInfo.processInfo.environment, arguments: CommandLine.arguments)
            } catch {
                logger.critical("\\(error.userMessage)")
                return 64
            }
            logger.logLevel = settings.logLevel
            let log = logger
            let database: {{Name}}Database
            do {
                database = try await {{Name}}Database.open(settings.database)
            } catch {
                log.critical("Could not open the database: \\(error.userMessage)")
                return 1
            }
            let domain = NoteDomain(records: database.records)
            let services = ServiceRegistry(log: LogSink(log))
            services.register(NoteActivityLog.self) { NoteActivityLog(bus: domain.bus, log: LogSink(log)) }
            let host = settings.host
            let app = {{Name}}Server.application(domain: domain, host: host, port: settings.port, logger: log) { port in
                // One line on standard output that scripts (and the end-to-end test) wait for.
                // Written straight to the file handle, so it is not held in a buffer.
                FileHandle.standardOutput.write(Data("{{Name}} listening on http://\\(host):\\(port)\\n".utf8))
            }
            let group = ServiceGroup(
                configuration: .init(
                    // Started in order, stopped in reverse: the HTTP server stops before the kit's services.
                    services: [.init(service: services.lifecycleService(stopTimeout: .seconds(5))), .init(service: app)],
                    gracefulShutdownSignals: [.sigterm, .sigint], logger: log))
            do {
                try await group.run()
                try await database.close()
            } catch {
                try? await database.close()
                log.error("{{Name}} stopped: \\(error.userMessage)")
                return 1
            }
            log.info("{{Name}} stopped")
            return 0
        }

        exit(await serve())

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
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("{{Name}}Tests-\\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let database = try await {{Name}}Database.open(.sqlite(folder.appendingPathComponent("notes.sqlite")))
            try await withServer(database: database, test)
        }

        /// Runs `test` against the real router over `database`, then closes it.
        func withServer(
            database: {{Name}}Database, _ test: @Sendable (any TestClientProtocol, NoteDomain) async throws -> Void
        ) async throws {
            let domain = NoteDomain(records: database.records)
            let app = {{Name}}Server.application(domain: domain, port: 0, logger: Logger(label: "{{Name}}Tests"))
            do {
                try await app.test(.router) { client in try await test(client, domain) }
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
