import BoilerplateSync
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Networking
import Serialization
import ServiceLifecycle
import Storage
import StoragePostgres
import StoragePostgresTesting
import StorageSQLite
import StorageSyncServer
import Testing

/// The records the sync tests keep on both ends.
struct Note: Codable, Identifiable, Sendable, Equatable, RevisionedRecord, QueryableRecord {
    var id: String
    var text: String
    var revision: Int = 0

    static let queryableFields: [QueryField<Note>] = [QueryField(\.text, "text")]
}

/// Notes are stamped with their model version (`model_version`), as ModelGen's models are.
extension Note: Versioned {
    static let version = 1
}

/// The databases a server keeps its records in.
enum ServerDatabase: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres
    var description: String { rawValue }
}

/// Switches a test server's behaviour while it runs.
final class ServerSwitches: @unchecked Sendable {
    // @unchecked: every field is only touched while holding `lock`.
    private let lock = NSLock()
    private var _requiredToken: String?
    private var _dropAnswers = 0
    private var _forbid = false
    private var _throttle = 0
    private var _throttleRetryAfter = "0"
    private var _failing = false
    private var _requests = 0
    private var _writes = 0
    private var _writesBeforeFailing: Int?
    private var _answers: [String: (status: Int, body: String)] = [:]

    /// When set, requests without `Authorization: Bearer <token>` get 401.
    var requiredToken: String? {
        get { lock.withLock { _requiredToken } }
        set { lock.withLock { _requiredToken = newValue } }
    }

    /// When true, every request gets 403.
    var forbid: Bool {
        get { lock.withLock { _forbid } }
        set { lock.withLock { _forbid = newValue } }
    }

    /// The next `n` writes are applied, but answered with 503 instead of their answer (a lost answer).
    var dropAnswers: Int {
        get { lock.withLock { _dropAnswers } }
        set { lock.withLock { _dropAnswers = newValue } }
    }

    /// The next `n` requests are answered 429 with `Retry-After` ``throttleRetryAfter``.
    var throttle: Int {
        get { lock.withLock { _throttle } }
        set { lock.withLock { _throttle = newValue } }
    }

    /// The `Retry-After` the throttled answers carry ("0" unless set).
    var throttleRetryAfter: String {
        get { lock.withLock { _throttleRetryAfter } }
        set { lock.withLock { _throttleRetryAfter = newValue } }
    }

    /// When true, every request gets 500.
    var failing: Bool {
        get { lock.withLock { _failing } }
        set { lock.withLock { _failing = newValue } }
    }

    /// When set, writes (not GETs) after the first `n` get 500.
    var writesBeforeFailing: Int? {
        get { lock.withLock { _writesBeforeFailing } }
        set { lock.withLock { _writesBeforeFailing = newValue } }
    }

    /// Writes whose path ends with a key (`"/notes/b"`) get that status and body instead of
    /// reaching the routes.
    var answers: [String: (status: Int, body: String)] {
        get { lock.withLock { _answers } }
        set { lock.withLock { _answers = newValue } }
    }

    /// How many requests reached the server.
    var requests: Int { lock.withLock { _requests } }
    /// How many writes (requests other than GET) reached the server.
    var writes: Int { lock.withLock { _writes } }

    func count(isWrite: Bool) {
        lock.withLock {
            _requests += 1; if isWrite { _writes += 1 }
        }
    }

    /// Whether this write is past `writesBeforeFailing` (it was counted already).
    func writeFails() -> Bool { lock.withLock { _writesBeforeFailing.map { _writes > $0 } ?? false } }

    func takeThrottle() -> Bool {
        lock.withLock {
            guard _throttle > 0 else { return false }
            _throttle -= 1
            return true
        }
    }

    func takeDrop() -> Bool {
        lock.withLock {
            guard _dropAnswers > 0 else { return false }
            _dropAnswers -= 1
            return true
        }
    }
}

/// Auth in front of the routes, and answers lost after the write committed.
struct TestGate<Context: RequestContext>: RouterMiddleware {
    let switches: ServerSwitches

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        switches.count(isWrite: request.method != .get)
        if switches.forbid { return Response(status: .forbidden) }
        if switches.failing || (request.method != .get && switches.writeFails()) {
            return Response(status: .internalServerError)
        }
        if request.method != .get,
            let answer = switches.answers.first(where: { request.uri.path.hasSuffix($0.key) })?.value
        {
            return Response(
                status: HTTPResponse.Status(code: answer.status), headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: answer.body)))
        }
        if switches.takeThrottle() {
            return Response(status: .tooManyRequests, headers: [.retryAfter: switches.throttleRetryAfter])
        }
        if let token = switches.requiredToken, request.headers[.authorization] != "Bearer \(token)" {
            return Response(status: .unauthorized)
        }
        let response = try await next(request, context)
        if request.method != .get, switches.takeDrop() { return Response(status: .serviceUnavailable) }
        return response
    }
}

/// A sync server on 127.0.0.1, its store, and switches.
struct TestServer: Sendable {
    let port: Int
    let store: RecordStore<Note>
    let routes: SyncRoutes<Note>
    let switches: ServerSwitches

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }
}

/// A temp folder for a test's client databases, removed afterwards.
func withFolder(_ body: (URL) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("BoilerplateSync-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder)
}

/// Runs `body` with a real sync server for `notes` on 127.0.0.1 over `database`, plus any
/// `extra` routes (hostile pages) and the server's own rules (`validate`), shut down afterwards.
func withServer(
    _ database: ServerDatabase = .sqlite, prefix: String? = nil,
    extra: (@Sendable (Router<BasicRequestContext>) -> Void)? = nil,
    validate: (@Sendable (SyncWrite<Note>) async throws -> Void)? = nil,
    _ body: @Sendable (TestServer) async throws -> Void
) async throws {
    switch database {
    case .sqlite:
        try await withFolder { folder in
            let store = try RecordStore<Note>(
                sqlite: folder.appendingPathComponent("server.sqlite"), table: "notes", changeFeed: true)
            try await serve(store, prefix: prefix, extra: extra, validate: validate, body)
        }
    case .postgres:
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<Note>(url: server.url, table: "notes", changeFeed: true)
            do {
                try await serve(RecordStore(backend: backend), prefix: prefix, extra: extra, validate: validate, body)
            } catch {
                try? await backend.shutdown()
                throw error
            }
            try? await backend.shutdown()
        }
    }
}

private func serve(
    _ store: RecordStore<Note>, prefix: String?, extra: (@Sendable (Router<BasicRequestContext>) -> Void)?,
    validate: (@Sendable (SyncWrite<Note>) async throws -> Void)?,
    _ body: @Sendable (TestServer) async throws -> Void
) async throws {
    let routes = try await SyncRoutes(store: store, path: "notes", validate: validate)
    let switches = ServerSwitches()
    let router = Router()
    router.add(middleware: TestGate(switches: switches))
    if let prefix { routes.add(to: router.group(RouterPath(prefix))) } else { routes.add(to: router) }
    extra?(router)
    var logger = Logger(label: "BoilerplateSyncTests")
    logger.logLevel = .critical
    let (ports, port) = AsyncStream<Int>.makeStream()
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in port.yield(channel.localAddress?.port ?? 0) }, logger: logger)
    let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let bound = try #require(await iterator.next())
        defer { tasks.cancelAll() }
        try await body(TestServer(port: bound, store: store, routes: routes, switches: switches))
        await group.triggerGracefulShutdown()
    }
}

/// A device: a synced store in its own SQLite file and an engine talking to `server`.
struct Device: Sendable {
    let store: SyncedRecordStore<Note>
    let engine: SyncEngine<Note>
    let client: HTTPClient

    /// Opens (or reopens, as a restarted app would) the device's database `name` in `folder`.
    static func open(
        _ name: String, in folder: URL, server: TestServer, path: String = "notes",
        policy: SyncConflictPolicy<Note> = .serverWins, retry: RetryPolicy = Device.quickRetry, pageSize: Int = 500,
        failureBackoff: Duration = .seconds(1)
    ) throws -> Device {
        let store = try SyncedRecordStore<Note>(url: folder.appendingPathComponent("\(name).sqlite"), table: "notes")
        let client = HTTPClient(baseURL: server.baseURL)
        client.timeout = .seconds(60)
        let engine = SyncEngine(
            store: store, client: client, path: path,
            configuration: SyncEngineConfiguration(
                conflictPolicy: policy, pageSize: pageSize, interval: .seconds(3600), retry: retry,
                failureBackoff: failureBackoff))
        return Device(store: store, engine: engine, client: client)
    }

    /// Retries quickly: tests should not wait for backoff.
    static let quickRetry = RetryPolicy(
        maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(20), jitter: false,
        retriesNonIdempotent: true)

    /// The device's records by id.
    func notes() async throws -> [String: Note] {
        Dictionary(uniqueKeysWithValues: try await store.records.fetchAll().map { ($0.id, $0) })
    }
}

/// The server's rule the refusal tests use: a note's text must not be blank.
@Sendable func refuseBlankText(_ write: SyncWrite<Note>) throws {
    if let note = write.record, note.text.allSatisfy(\.isWhitespace) {
        throw SyncWriteRefused("The field 'text' must not be blank.", field: "text")
    }
}

extension TestServer {
    /// The server's records by id.
    func notes() async throws -> [String: Note] {
        Dictionary(uniqueKeysWithValues: try await store.fetchAll().map { ($0.id, $0) })
    }
}

/// A feed route that answers whatever page a test sets: hostile and corrupt pages.
final class ScriptedFeed: @unchecked Sendable {
    // @unchecked: `page` is only touched while holding `lock`.
    private let lock = NSLock()
    private var page = Data()

    /// The next answers' body.
    var body: String {
        get { lock.withLock { String(decoding: page, as: UTF8.self) } }
        set { lock.withLock { page = Data(newValue.utf8) } }
    }

    /// Mounts `GET /<path>/changes`, answering the body set.
    func add(to router: Router<BasicRequestContext>, path: String) {
        router.get("\(path)/changes") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: self.body)))
        }
    }
}
