// The HTTP and process files of a server project: problem details, routes, the activity log service, the application factory and the executable.
extension ServerTemplate {
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
            /// unreadable input is 422, the HTTP stack's errors keep theirs (a body over a route's limit
            /// is 413), and anything else is a 500 whose detail hides the cause.
            public init(_ error: any Error) {
                switch error {
                case let error as {{Name}}Error:
                    self.init(
                        type: "urn:{{name}}:problem:\\(error.code)", title: Self.title(error.status), status: error.status,
                        detail: error.message)
                case let error as DecodingError:
                    self.init(
                        type: "urn:{{name}}:problem:invalid-body", title: Self.title(422), status: 422,
                        detail: "The request body does not fit: \\(error.userMessage)")
                case let error as any HTTPResponseError where error.status.code < 500:
                    // Hummingbird's own errors: `collect(upTo:)` throws NIOTooManyBytesError (413) for a
                    // body over a route's limit, and a route may throw an HTTPError with any status.
                    // They are the client's mistake, so they keep their status and are not logged.
                    self.init(
                        type: "urn:{{name}}:problem:\\(Self.slug(error.status))", title: error.status.reasonPhrase,
                        status: error.status.code, detail: Self.detail(error))
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

            /// `Content Too Large` → `content-too-large`: the problem type of an HTTP status.
            static func slug(_ status: HTTPResponse.Status) -> String {
                status.reasonPhrase.lowercased().split(separator: " ").joined(separator: "-")
            }

            /// What an error of the HTTP stack says to the client.
            static func detail(_ error: any HTTPResponseError) -> String {
                if error.status == .contentTooLarge { return "The request body is larger than this route accepts." }
                if let error = error as? HTTPError, let message = error.body, !message.isEmpty { return message }
                return "\\(error.status.reasonPhrase)."
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
        /// Errors are problem details (RFC 9457): 404 for a missing note, 422 for bad input, 413 for a
        /// body over the limit `POST` and `PATCH` read.
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

        /// Builds {{Name}}'s HTTP application: the router with the note routes over a ``NoteDomain``,
        /// the routes of the resources added with `boiler add resource` and those added with
        /// `boiler add route`.
        public enum {{Name}}Server {
            /// The router: `GET /health`, the ``NoteRoutes``, the added resources' and routes'.
            public static func router(domain: NoteDomain, resources: {{Name}}Resources) -> Router<BasicRequestContext> {
                let router = Router()
                router.get("health") { _, _ in "ok" }
                NoteRoutes.add(to: router, domain: domain)
                resources.add(to: router)
                {{Name}}Parts.addRoutes(to: router, domain: domain)
                return router
            }

            /// The Hummingbird application serving `domain` and `resources` at `host`:`port` (0 picks a
            /// free port). `onRunning` is called with the port once the server listens.
            public static func application(
                domain: NoteDomain, resources: {{Name}}Resources, host: String = "127.0.0.1", port: Int = 8080,
                logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
            ) -> some ApplicationProtocol {
                Application(
                    router: router(domain: domain, resources: resources),
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
            let resources: {{Name}}Resources
            do {
                resources = try await {{Name}}Resources.open(in: database, bus: domain.bus)
            } catch {
                try? await database.close()
                log.critical("Could not open the resources' tables: \\(error.userMessage)")
                return 1
            }
            let services = ServiceRegistry(log: LogSink(log))
            services.register(NoteActivityLog.self) { NoteActivityLog(bus: domain.bus, log: LogSink(log)) }
            {{Name}}Parts.registerServices(in: services, domain: domain, log: LogSink(log))
            let host = settings.host
            let app = {{Name}}Server.application(
                domain: domain, resources: resources, host: host, port: settings.port, logger: log
            ) { port in
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
}
