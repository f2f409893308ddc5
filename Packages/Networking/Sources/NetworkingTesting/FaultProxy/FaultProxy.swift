import FlyingSocks
import Foundation
import _KitSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback HTTP/1.1 proxy that stands between a client and a real server and breaks the
/// exchange on purpose: drops a request, drops an answer after the server committed, delays,
/// duplicates, reorders, answers 503 or 401 itself, or refuses connections.
///
/// Point the client at ``baseURL`` instead of the server. Each request is numbered in arrival
/// order (``Request/index``), given a ``Fault`` by the ``plan``, and recorded in ``exchanges``
/// with what the upstream answered and what the client got, so a test can check both sides.
///
/// ```swift
/// let server = try await TestServer.start()
/// await server.route("PUT /api/notes/*", reply: .json(#"{"revision":1}"#))
/// let proxy = try await FaultProxy.start(upstreamPort: server.port, plan: .script([.dropResponse]))
/// let client = HTTPClient(baseURL: proxy.url("api/"))
/// client.retryPolicy = .never
/// // The server stores the write, the client hears nothing back:
/// await #expect(throws: HTTPClientError.self) {
///     try await client.send(HTTPRequest(method: .put, path: "notes/1", body: .json(["text": "Milk"])))
/// }
/// #expect(server.requests.count == 1)
/// #expect(proxy.exchanges.first?.outcome == .closedWithoutAnswer)
/// await proxy.stop()
/// ```
///
/// Each answer carries `Connection: close` and the proxy closes the connection after it, so a
/// fault never leaks into the next request through a reused connection (see
/// ``Options/reusesConnections``). The proxy reads whole messages and writes them with a
/// `Content-Length`; it is a test tool for JSON-sized exchanges, not a streaming proxy. Hostile
/// input is answered and closed, never forwarded: a head over ``Options/maxHeadBytes`` gets
/// 431, a body over ``Options/maxBodyBytes`` 413, a malformed head 400 (``rejections``).
/// An upstream that cannot be reached is answered 502, as a real reverse proxy does; to
/// imitate a server that is down, use ``refuseConnections()``.
///
/// Stop the proxy when the test ends, or use ``withFaultProxy(upstreamHost:upstreamPort:plan:options:_:)``,
/// which does it whatever happens.
public final class FaultProxy: Sendable {
    /// Limits and connection handling.
    public struct Options: Sendable {
        /// The largest request or response head (start line and fields) read: 64 KiB by default.
        public var maxHeadBytes: Int
        /// The largest request or response body read: 16 MiB by default.
        public var maxBodyBytes: Int
        /// Whether a client may send several requests over one connection. Off by default: every
        /// answer then says `Connection: close`, so each request's fault is seen on its own
        /// connection and a client never re-sends a request on its own after a dropped one.
        public var reusesConnections: Bool
        /// How long ``Fault/reorder`` holds an answer when no later answer goes out: 2 s by default.
        public var reorderHold: Duration

        /// Options with the defaults described on each property.
        public init(
            maxHeadBytes: Int = 64 * 1024, maxBodyBytes: Int = 16 * 1024 * 1024, reusesConnections: Bool = false,
            reorderHold: Duration = .seconds(2)
        ) {
            self.maxHeadBytes = maxHeadBytes
            self.maxBodyBytes = maxBodyBytes
            self.reusesConnections = reusesConnections
            self.reorderHold = reorderHold
        }
    }

    /// A request as the proxy received it.
    public struct Request: Sendable, Equatable {
        /// The arrival number, from 0: the order in which the proxy finished reading requests.
        public var index: Int
        /// The method, such as `"PUT"`.
        public var method: String
        /// The request target as sent: the path and the query, such as `"/notes/changes?after=4"`.
        public var target: String
        /// The fields, by lowercased name; a field given more than once is joined with `", "`.
        public var headers: [String: String]
        /// The body, decoded from `chunked` if it came that way.
        public var body: Data

        /// The target without its query.
        public var path: String { String(target.prefix { $0 != "?" }) }
        /// The value of the field `name`, compared case-insensitively.
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
        /// The body as UTF-8 text, if it is.
        public var text: String? { String(data: body, encoding: .utf8) }

        /// A request, for a ``FaultPlan`` to be tried on without a proxy.
        public init(index: Int, method: String, target: String, headers: [String: String] = [:], body: Data = Data()) {
            self.index = index
            self.method = method
            self.target = target
            self.headers = headers
            self.body = body
        }
    }

    /// What the client got for one request.
    public enum Outcome: Sendable, Equatable {
        /// The proxy is still working on it.
        case inFlight
        /// The client was sent an answer with this status (the upstream's, or the fault's own).
        case answered(status: Int)
        /// The connection was closed without an answer (``Fault/dropRequest``, ``Fault/dropResponse``).
        case closedWithoutAnswer
        /// The connection was reset without an answer (``Fault/reset``).
        case reset
        /// The upstream could not be reached or broke off its answer; the client was answered 502.
        case upstreamFailed(String)
        /// The client closed the connection before its answer could be written.
        case clientGone
        /// The proxy was stopped before it finished.
        case abandoned
    }

    /// One request's record: the request, its fault, what the upstream answered, what the client got.
    public struct Exchange: Sendable, Equatable {
        /// The request as received.
        public var request: Request
        /// The fault the plan chose for it.
        public var fault: Fault
        /// The upstream's answer to each copy forwarded, in order: empty when the request was
        /// not forwarded, two entries under ``Fault/duplicate``. Kept whole, so a test can read
        /// what the upstream committed even when the client never saw it.
        public var upstreamAnswers: [Answer]
        /// What the client got.
        public var outcome: Outcome
        /// Under ``Fault/reorder``: the arrival number of the later request whose answer went out
        /// first; nil when the hold ran out with no later answer.
        public var releasedAfter: Int?

        /// The upstream's status for each copy forwarded, in order.
        public var upstreamStatuses: [Int] { upstreamAnswers.map(\.status) }

        /// How many copies reached the upstream and were answered by it.
        public var forwardedCount: Int { upstreamAnswers.count }
    }

    /// An answer the upstream gave to one forwarded copy of a request.
    public struct Answer: Sendable, Equatable {
        /// The status, such as 201.
        public var status: Int
        /// The fields, by lowercased name; a field given more than once is joined with `", "`.
        public var headers: [String: String]
        /// The body, decoded from `chunked` if it came that way.
        public var body: Data

        /// The value of the field `name`, compared case-insensitively.
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// A message the proxy refused to read, answered with `status` and closed, never forwarded.
    public struct Rejection: Sendable, Equatable {
        /// The status sent: 400, 413, 431 or 501.
        public var status: Int
        /// What was wrong, such as `"head larger than 65536 bytes"`.
        public var reason: String
    }

    struct State {
        var plan: FaultPlan
        var upstreamPort: UInt16
        var nextIndex = 0
        var exchanges: [Exchange] = []
        var rejections: [Rejection] = []
        var answered: [Int] = []
        var acceptTask: Task<Void, Never>?
        /// While refusing connections: a socket bound to the port that never listens, so no
        /// other socket takes the port before ``FaultProxy/acceptConnections()``.
        var portHolder: Socket?
        var connections: [Int: Task<Void, Never>] = [:]
        var nextConnection = 0
        var stopped = false

        /// The port's holder, now no longer held here; the caller closes it (once).
        mutating func takePortHolder() -> Socket? {
            defer { portHolder = nil }
            return portHolder
        }
    }

    /// The address the proxy listens on: `"127.0.0.1"` unless another was asked for.
    public let host: String
    /// The proxy's port, chosen by the system.
    public let port: UInt16
    /// The upstream's address.
    public let upstreamHost: String
    /// The limits the proxy was started with.
    public let options: Options
    let pool: any AsyncSocketPool
    private let poolTask: Task<Void, any Error>
    let state: Locked<State>

    /// `http://host:port/`.
    public var baseURL: URL { url("") }

    /// The URL of `path` on the proxy (`path` without a leading slash).
    public func url(_ path: String) -> URL {
        URL(string: "http://\(host):\(port)/\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// The plan deciding each new request's fault. Changing it affects requests read afterwards.
    public var plan: FaultPlan {
        get { state.withLock { $0.plan } }
        set { state.withLock { $0.plan = newValue } }
    }

    /// The upstream's port. Change it when the upstream restarts on another port, so clients
    /// keep their URL.
    public var upstreamPort: UInt16 {
        get { state.withLock { $0.upstreamPort } }
        set { state.withLock { $0.upstreamPort = newValue } }
    }

    /// Every request read so far, by arrival number (`exchanges[i].request.index == i`).
    public var exchanges: [Exchange] { state.withLock { $0.exchanges } }

    /// The arrival numbers of the requests answered so far, in the order their answers went out:
    /// `[1, 0]` after a ``Fault/reorder`` on request 0.
    public var answerOrder: [Int] { state.withLock { $0.answered } }

    /// Every message refused as hostile or malformed, in order.
    public var rejections: [Rejection] { state.withLock { $0.rejections } }

    /// Whether the proxy is refusing connections (after ``refuseConnections()``).
    public var isRefusingConnections: Bool { state.withLock { $0.acceptTask == nil && !$0.stopped } }

    private init(
        host: String, port: UInt16, upstreamHost: String, options: Options, pool: any AsyncSocketPool,
        poolTask: Task<Void, any Error>, state: State
    ) {
        self.host = host
        self.port = port
        self.upstreamHost = upstreamHost
        self.options = options
        self.pool = pool
        self.poolTask = poolTask
        self.state = Locked(state)
    }

    /// Starts a proxy on `host` and an ephemeral port that forwards to `upstreamHost:upstreamPort`.
    ///
    /// - Parameters:
    ///   - upstreamHost: the server's IPv4 address.
    ///   - upstreamPort: the server's port.
    ///   - host: the IPv4 address to listen on.
    ///   - plan: the faults to apply; pass-through by default.
    ///   - options: limits and connection handling.
    /// - Throws: the socket error when the address cannot be bound or an address is not IPv4.
    public static func start(
        upstreamHost: String = "127.0.0.1", upstreamPort: UInt16, host: String = "127.0.0.1",
        plan: FaultPlan = .passThrough, options: Options = Options()
    ) async throws -> FaultProxy {
        _ = try sockaddr_in.inet(ip4: upstreamHost, port: upstreamPort)
        let pool = makeSocketPool()
        try await pool.prepare()
        let poolTask = Task { try await pool.run() }
        let listener: Socket
        let port: UInt16
        do {
            listener = try listeningSocket(host: host, port: 0)
            guard case .ip4(_, let boundPort) = try? listener.sockname() else {
                try? listener.close()
                throw SocketError.unsupportedAddress
            }
            port = boundPort
        } catch {
            poolTask.cancel()
            _ = await poolTask.result
            throw error
        }
        let proxy = FaultProxy(
            host: host, port: port, upstreamHost: upstreamHost, options: options, pool: pool, poolTask: poolTask,
            state: State(plan: plan, upstreamPort: upstreamPort))
        do {
            try proxy.startAccepting(on: listener)
        } catch {
            try? listener.close()
            await proxy.stop()
            throw error
        }
        return proxy
    }

    /// Stops listening, ends every connection (requests in flight end as ``Outcome/abandoned``)
    /// and returns when every socket is closed and every task has ended.
    public func stop() async {
        let (accept, connections) = state.withLock { state in
            state.stopped = true
            let accept = state.acceptTask
            state.acceptTask = nil
            return (accept, Array(state.connections.values))
        }
        accept?.cancel()
        await accept?.value
        if let holder = state.withLock({ $0.takePortHolder() }) { try? holder.close() }
        for connection in connections { connection.cancel() }
        for connection in connections { await connection.value }
        poolTask.cancel()
        _ = await poolTask.result
    }

    /// Closes the listening socket, so new connections are refused (`ECONNREFUSED`) as if the
    /// server were down. Connections already open carry on.
    ///
    /// The port stays the proxy's meanwhile: a socket bound to it, which never listens, holds it
    /// until ``acceptConnections()``: a free port may be handed to any other socket (a server
    /// binding port 0, a connection's source port), and in a busy test run one was, so
    /// listening again failed with `EADDRINUSE`.
    public func refuseConnections() async {
        // Bound before the listener closes, so the port is never free; if it cannot be bound,
        // the proxy still refuses connections, only without holding the port.
        let holder = try? Self.boundSocket(host: host, port: port)
        let (accept, unused) = state.withLock { state -> (Task<Void, Never>?, Socket?) in
            guard let accept = state.acceptTask, !state.stopped else { return (nil, holder) }
            state.acceptTask = nil
            let previous = state.takePortHolder()
            state.portHolder = holder
            return (accept, previous)
        }
        if let unused { try? unused.close() }
        accept?.cancel()
        await accept?.value
    }

    /// Listens again on the same port after ``refuseConnections()``.
    /// - Throws: the socket error if the port cannot be listened on (it is held for the proxy
    ///   while it refuses, so only a socket that set `SO_REUSEPORT` itself could have taken it).
    public func acceptConnections() async throws {
        guard state.withLock({ $0.acceptTask == nil && !$0.stopped }) else { return }
        let listener = try Self.listeningSocket(host: host, port: port)
        do {
            try startAccepting(on: listener)
        } catch {
            try? listener.close()
            throw error
        }
        // Listening again: the holder's work is done. Taken only once the listener is accepting,
        // so a racing refuseConnections() finds either the holder or the accepting listener.
        let holder = state.withLock { state -> Socket? in
            state.acceptTask == nil ? nil : state.takePortHolder()
        }
        if let holder { try? holder.close() }
    }

    /// A socket bound to `host:port` with `SO_REUSEADDR` and `SO_REUSEPORT`, not listening. The
    /// proxy's listeners set both too, so a listener and the port's holder can be bound at once.
    private static func boundSocket(host: String, port: UInt16) throws -> Socket {
        let socket = try Socket(domain: Int32(AF_INET), type: .stream)
        do {
            // So the port can be bound again after refuseConnections() while old connections linger.
            try socket.setValue(true, for: .localAddressReuse)
            try socket.setValue(true, for: BoolSocketOption(name: SO_REUSEPORT))
            try socket.bind(to: sockaddr_in.inet(ip4: host, port: port))
        } catch {
            try? socket.close()
            throw error
        }
        return socket
    }

    private static func listeningSocket(host: String, port: UInt16) throws -> Socket {
        let socket = try boundSocket(host: host, port: port)
        // Not closed here when it fails: FlyingSocks' `listen()` closes the socket itself, and
        // `Socket.close()` does not remember it was closed, so a second close would close whatever
        // socket (of this proxy's pool, or another's in the same process) was given that number since.
        try socket.listen()
        return socket
    }

    private func startAccepting(on listener: Socket) throws {
        let asyncListener = try AsyncSocket(socket: listener, pool: pool)
        let task = Task { [self] in
            // The listener is closed here, after its last wait ended: closing a socket the poller
            // still watches would leave that wait pending.
            defer { try? asyncListener.close() }
            while !Task.isCancelled {
                do {
                    let client = try await asyncListener.accept()
                    adopt(client)
                } catch is CancellationError {
                    return
                } catch {
                    // EMFILE and the like: back off instead of spinning.
                    try? await Task.sleep(for: .milliseconds(10))
                }
            }
        }
        let started = state.withLock { state -> Bool in
            guard !state.stopped, state.acceptTask == nil else { return false }
            state.acceptTask = task
            return true
        }
        if !started { task.cancel() }
    }

    private func adopt(_ client: AsyncSocket) {
        // The task is created under the lock so that it is registered before it can unregister itself.
        state.withLock { current in
            guard !current.stopped else {
                try? client.close()
                return
            }
            let id = current.nextConnection
            current.nextConnection += 1
            current.connections[id] = Task { [self] in
                await serve(client)
                state.withLock { _ = $0.connections.removeValue(forKey: id) }
            }
        }
    }
}

/// Runs `body` with a fresh ``FaultProxy`` in front of `upstreamHost:upstreamPort`, stopping the
/// proxy afterwards whether `body` returns or throws. A proxy that is never stopped keeps its
/// socket and tasks until the process ends.
public func withFaultProxy<T>(
    upstreamHost: String = "127.0.0.1", upstreamPort: UInt16, plan: FaultPlan = .passThrough,
    options: FaultProxy.Options = FaultProxy.Options(), _ body: (FaultProxy) async throws -> T
) async throws -> T {
    let proxy = try await FaultProxy.start(
        upstreamHost: upstreamHost, upstreamPort: upstreamPort, plan: plan, options: options)
    do {
        let result = try await body(proxy)
        await proxy.stop()
        return result
    } catch {
        await proxy.stop()
        throw error
    }
}
