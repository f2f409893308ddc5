import FlyingFox
import FlyingSocks
import Foundation

/// A request as the test server saw it.
struct SeenRequest: Sendable {
    var method: String
    var path: String
    /// The raw, still percent-encoded query string.
    var rawQuery: String
    var query: [String: String]
    /// Header names lower-cased; repeated fields joined by the server.
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// What a test route answers.
struct Reply: Sendable {
    var status: Int = 200
    var headers: [(String, String)] = []
    var body = Data()
    /// Seconds the server waits before answering (for timeouts and cancellation).
    var delay: Double = 0

    static func json(_ text: String, status: Int = 200) -> Reply {
        Reply(status: status, headers: [("Content-Type", "application/json")], body: Data(text.utf8))
    }

    static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> Reply {
        Reply(status: status, headers: [("Content-Type", contentType)], body: Data(text.utf8))
    }

    static func redirect(_ status: Int = 302, to location: String) -> Reply {
        Reply(status: status, headers: [("Location", location)])
    }
}

/// A real FlyingFox HTTP server on 127.0.0.1 (or another loopback address) and a free port,
/// recording every request it serves.
final class TestServer: Sendable {
    let server: HTTPServer
    let host: String
    let port: UInt16
    private let runner: Task<Void, any Error>
    private let seen = Guarded<[SeenRequest]>([])

    /// `http://host:port/`.
    var baseURL: URL { URL(string: "http://\(host):\(port)/")! }
    /// `http://host:port/api/`: the base URL the tests give their clients.
    var apiURL: URL { URL(string: "http://\(host):\(port)/api/")! }

    /// Every request served so far, in order.
    var requests: [SeenRequest] { seen.withLock { $0 } }

    private init(server: HTTPServer, host: String, port: UInt16, runner: Task<Void, any Error>) {
        self.server = server
        self.host = host
        self.port = port
        self.runner = runner
    }

    /// Starts a server bound to `host` on `port` (0: any free port, read back once listening).
    static func start(host: String = "127.0.0.1", port: UInt16 = 0) async throws -> TestServer {
        let server = HTTPServer(address: try .inet(ip4: host, port: port), timeout: 30, logger: .disabled)
        let runner = Task { try await server.run() }
        // A hang guard, not a timing check: FlyingFox's default of 5 s is too short on a loaded 2-core machine.
        try await server.waitUntilListening(timeout: 120)
        guard case .ip4(_, let boundPort) = await server.listeningAddress else {
            runner.cancel()
            throw URLError(.cannotConnectToHost)
        }
        return TestServer(server: server, host: host, port: boundPort, runner: runner)
    }

    func stop() async {
        await server.stop(timeout: 0)
        runner.cancel()
        _ = await runner.result
    }

    /// Adds a route such as `"GET /api/notes"`; `handler` answers it.
    func route(_ route: String, _ handler: @escaping @Sendable (SeenRequest) async throws -> Reply) async {
        await server.appendRoute(HTTPRoute(stringLiteral: route)) { [seen] request in
            let body = try await request.bodyData
            var headers: [String: String] = [:]
            for (key, value) in request.headers {
                let name = key.rawValue.lowercased()
                headers[name] = headers[name].map { "\($0), \(value)" } ?? value
            }
            var query: [String: String] = [:]
            for item in request.query { query[item.name] = item.value }
            let seenRequest = SeenRequest(
                method: request.method.rawValue, path: request.path, rawQuery: request.target.query(), query: query,
                headers: headers, body: body)
            seen.withLock { $0.append(seenRequest) }
            let reply = try await handler(seenRequest)
            if reply.delay > 0 { try await Task.sleep(for: .milliseconds(Int(reply.delay * 1000))) }
            var responseHeaders = FlyingFox.HTTPHeaders()
            for (name, value) in reply.headers { responseHeaders.addValue(value, for: HTTPHeader(name)) }
            return FlyingFox.HTTPResponse(
                statusCode: HTTPStatusCode(reply.status, phrase: "Status"), headers: responseHeaders, body: reply.body)
        }
    }

    /// Serves the file at `path` with ranges, `ETag` and `Last-Modified` (FlyingFox's file handler).
    func file(_ route: String, at path: URL, contentType: String = "application/octet-stream") async {
        let handler = FileHTTPHandler(path: path, contentType: contentType)
        await server.appendRoute(HTTPRoute(stringLiteral: route)) { [seen] request in
            var headers: [String: String] = [:]
            for (key, value) in request.headers { headers[key.rawValue.lowercased()] = value }
            seen.withLock {
                $0.append(
                    SeenRequest(
                        method: request.method.rawValue, path: request.path, rawQuery: "", query: [:], headers: headers,
                        body: Data()))
            }
            return try await handler.handleRequest(request)
        }
    }
}

/// Runs `body` with a fresh server, stopping it afterwards whatever happens.
func withServer<T>(
    host: String = "127.0.0.1", _ body: (TestServer) async throws -> T
) async throws -> T {
    let server = try await TestServer.start(host: host)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// A lock-guarded value for tests (FlyingSocks has its own `Mutex`).
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A temporary directory removed when the test ends.
struct TemporaryDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("networking-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
}
