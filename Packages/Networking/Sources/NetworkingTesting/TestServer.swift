import FlyingFox
import FlyingSocks
import Foundation
import _KitSupport

/// A real HTTP server on a loopback address and an ephemeral port, for tests that exercise the
/// whole stack: sockets, the transport, redirects, timeouts and cancellation.
///
/// Routes are matched by method and path (`"GET /api/notes"`, `"PUT /api/notes/*"`); every
/// request a route serves is recorded in ``requests``. Stop the server when the test ends, or
/// use ``withServer(host:_:)`` which does it whatever happens.
///
/// ```swift
/// try await withServer { server in
///     await server.route("GET /api/notes") { _ in .json(#"[{"id":1}]"#) }
///     let client = HTTPClient(baseURL: server.apiURL)
///     let notes: [Note] = try await client.get("notes")
///     #expect(server.requests.map(\.path) == ["/api/notes"])
/// }
/// ```
///
/// Built on FlyingFox; ``httpServer`` gives direct access for routes this type does not cover
/// (streamed bodies, custom handlers). A request no route matches is answered 404 and not recorded.
public final class TestServer: Sendable {
    /// The FlyingFox server underneath, for routes ``route(_:_:)`` cannot express.
    public let httpServer: HTTPServer
    /// The address the server listens on, such as `"127.0.0.1"`.
    public let host: String
    /// The port the server listens on, chosen by the system unless one was asked for.
    public let port: UInt16
    private let runner: Task<Void, any Error>
    private let seen = Locked<[SeenRequest]>([])

    /// `http://host:port/`.
    public var baseURL: URL { url("") }
    /// `http://host:port/api/`: a base URL for clients whose routes live under `/api`.
    public var apiURL: URL { url("api/") }

    /// The URL of `path` on this server (`path` without a leading slash).
    public func url(_ path: String) -> URL {
        // A host and a port always make a valid URL; the fallback keeps this free of force-unwraps.
        URL(string: "http://\(host):\(port)/\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// Every request served so far, in the order they arrived.
    public var requests: [SeenRequest] { seen.withLock { $0 } }

    private init(server: HTTPServer, host: String, port: UInt16, runner: Task<Void, any Error>) {
        self.httpServer = server
        self.host = host
        self.port = port
        self.runner = runner
    }

    /// Starts a server bound to `host` on `port` and returns once it is listening.
    ///
    /// - Parameters:
    ///   - host: an IPv4 address; any of 127.0.0.0/8 works on Linux (use `"127.0.0.2"` for a
    ///     second origin in cross-origin tests).
    ///   - port: 0 (the default) lets the system pick a free port, read back into ``port``.
    /// - Throws: the socket error when the address cannot be bound, or `URLError(.cannotConnectToHost)`
    ///   when the server does not report an IPv4 address.
    public static func start(host: String = "127.0.0.1", port: UInt16 = 0) async throws -> TestServer {
        // `timeout` bounds a handler, reading the request's body included; past it FlyingFox answers
        // 500. It is a hang guard, not a timing check: at 30 s a loaded run (64 tests on two cores,
        // load 10) answered a 200 KB upload with 500 while its body was still being read.
        let server = HTTPServer(
            address: try .inet(ip4: host, port: port), timeout: 300, pool: makeSocketPool(), logger: .disabled)
        let runner = Task { try await server.run() }
        // A hang guard, not a timing check: FlyingFox's default of 5 s is too short on a loaded machine.
        do {
            try await server.waitUntilListening(timeout: 120)
        } catch {
            runner.cancel()
            throw error
        }
        guard case .ip4(_, let boundPort) = await server.listeningAddress else {
            runner.cancel()
            throw URLError(.cannotConnectToHost)
        }
        return TestServer(server: server, host: host, port: boundPort, runner: runner)
    }

    /// Stops listening, drops open connections and waits for the server task to end.
    public func stop() async {
        await httpServer.stop(timeout: 0)
        runner.cancel()
        _ = await runner.result
    }

    /// Adds a route such as `"GET /api/notes"` (`*` matches any path segment); `handler`
    /// answers it. Routes added earlier win when several match.
    public func route(_ route: String, _ handler: @escaping @Sendable (SeenRequest) async throws -> Reply) async {
        await httpServer.appendRoute(HTTPRoute(stringLiteral: route)) { [seen] request in
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
            if reply.delay > .zero { try await Task.sleep(for: reply.delay) }
            var responseHeaders = FlyingFox.HTTPHeaders()
            for (name, value) in reply.headers { responseHeaders.addValue(value, for: HTTPHeader(name)) }
            return FlyingFox.HTTPResponse(
                statusCode: HTTPStatusCode(reply.status, phrase: "Status"), headers: responseHeaders, body: reply.body)
        }
    }

    /// Adds a route that always answers `reply`.
    public func route(_ route: String, reply: Reply) async {
        await self.route(route) { _ in reply }
    }

    /// Serves the file at `path` with byte ranges, `ETag` and `Last-Modified` (FlyingFox's file
    /// handler). The request is recorded without its body.
    public func file(_ route: String, at path: URL, contentType: String = "application/octet-stream") async {
        let handler = FileHTTPHandler(path: path, contentType: contentType)
        await httpServer.appendRoute(HTTPRoute(stringLiteral: route)) { [seen] request in
            var headers: [String: String] = [:]
            for (key, value) in request.headers { headers[key.rawValue.lowercased()] = value }
            seen.withLock {
                $0.append(
                    SeenRequest(
                        method: request.method.rawValue, path: request.path, rawQuery: request.target.query(),
                        query: [:], headers: headers, body: Data()))
            }
            return try await handler.handleRequest(request)
        }
    }
}

/// Runs `body` with a fresh ``TestServer`` on `host`, stopping the server afterwards whether
/// `body` returns or throws.
public func withServer<T>(
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

/// The socket pool for a ``TestServer`` or a ``FaultProxy``. On Linux, FlyingSocks' default epoll
/// pool never closes its wake-up eventfd, so every server or proxy started leaked a descriptor:
/// about 1,400 over a run of the whole unit set, and with that many entries in /proc/self/fd,
/// Foundation's `Process.run()` crashed in a memcpy (its scan of /proc/self/fd over-reads a
/// directory entry, swift-corelibs-foundation PR #5472; seen in a CI-like run while
/// PostgresTestServer launched a program). The poll pool opens no descriptor of its own; it waits
/// at most 10 ms at a time on its dispatch queue, never on a Swift-concurrency thread.
func makeSocketPool() -> any AsyncSocketPool {
    #if os(Linux)
        SocketPool<Poll>.poll()
    #else
        SocketPool.make()
    #endif
}
