import FlyingSocks
import Foundation
import Networking
import NetworkingTesting
import Testing

/// Each fault, seen from both ends: what the client got and what the upstream server received.
@Suite("FaultProxy: each fault from the client's and the upstream's side")
struct FaultProxyFaultTests {
    private static func put(_ text: String, key: String = "k1") -> HTTPRequest {
        HTTPRequest(
            method: .put, path: "notes/1", query: ["v": "2"], headers: ["Idempotency-Key": key],
            body: .data(Data(#"{"text":"\#(text)"}"#.utf8), contentType: "application/json"))
    }

    /// Sends `request` and returns the client's error, failing the test if it succeeded.
    private static func failure(_ client: HTTPClient, _ request: HTTPRequest) async -> HTTPClientError? {
        do {
            let response = try await client.send(request)
            Issue.record("expected a failure, got \(response.status.code)")
            return nil
        } catch let error as HTTPClientError {
            return error
        } catch {
            Issue.record("not an HTTPClientError: \(error)")
            return nil
        }
    }

    @Test("pass-through forwards method, target, fields and body, and returns the answer unchanged")
    func passThrough() async throws {
        try await ProxiedServer.with { fixture throws in
            await fixture.server.route("PUT /api/notes/*") { request in
                Reply(status: 201, headers: [("X-Revision", "7")], body: Data("stored \(request.text ?? "")".utf8))
            }
            let response = try await fixture.client.send(Self.put("Milk"))
            #expect(response.status.code == 201)
            #expect(response.text == #"stored {"text":"Milk"}"#)
            #expect(response.headers["X-Revision"] == "7")
            let seen = try #require(fixture.server.requests.first)
            #expect(fixture.server.requests.count == 1)
            #expect(seen.method == "PUT" && seen.path == "/api/notes/1" && seen.query == ["v": "2"])
            #expect(seen.header("Idempotency-Key") == "k1")
            #expect(seen.text == #"{"text":"Milk"}"#)
            let exchange = try #require(fixture.proxy.exchanges.first)
            #expect(exchange.fault == .passThrough)
            #expect(exchange.request.target == "/api/notes/1?v=2" && exchange.request.path == "/api/notes/1")
            #expect(exchange.request.header("idempotency-key") == "k1")
            #expect(exchange.upstreamStatuses == [201])
            #expect(exchange.upstreamAnswers.first?.header("x-revision") == "7")
            #expect(exchange.upstreamAnswers.first?.body == Data(#"stored {"text":"Milk"}"#.utf8))
            #expect(exchange.outcome == .answered(status: 201))
        }
    }

    @Test("a dropped request never reaches the upstream and the client gets no answer")
    func dropRequest() async throws {
        try await ProxiedServer.with(plan: .script([.dropRequest])) { fixture throws in
            await fixture.server.route("PUT /api/notes/*", reply: .status(200))
            let error = await Self.failure(fixture.client, Self.put("Milk"))
            #expect(error?.isTransport == true, "got \(String(describing: error))")
            #expect(fixture.server.requests.isEmpty)
            #expect(fixture.proxy.exchanges.map(\.outcome) == [.closedWithoutAnswer])
            #expect(fixture.proxy.exchanges.first?.forwardedCount == 0)
            // The next request passes (the script is over): the fault did not outlive its request.
            #expect(try await fixture.client.send(Self.put("Milk", key: "k2")).status.code == 200)
            #expect(fixture.server.requests.count == 1)
        }
    }

    @Test("a reset request never reaches the upstream and the client sees the connection fail")
    func reset() async throws {
        try await ProxiedServer.with(plan: .script([.reset])) { fixture throws in
            await fixture.server.route("PUT /api/notes/*", reply: .status(200))
            let error = await Self.failure(fixture.client, Self.put("Milk"))
            #expect(error?.isTransport == true, "got \(String(describing: error))")
            #expect(fixture.server.requests.isEmpty)
            #expect(fixture.proxy.exchanges.map(\.outcome) == [.reset])
        }
    }

    @Test("a dropped response: the upstream committed the write, the client heard nothing")
    func dropResponse() async throws {
        try await ProxiedServer.with(plan: .script([.dropResponse])) { fixture throws in
            await fixture.server.route("PUT /api/notes/*", reply: .json(#"{"revision":1}"#, status: 201))
            let error = await Self.failure(fixture.client, Self.put("Milk"))
            #expect(error?.isTransport == true, "got \(String(describing: error))")
            #expect(fixture.server.requests.map(\.text) == [#"{"text":"Milk"}"#])
            let exchange = try #require(fixture.proxy.exchanges.first)
            #expect(exchange.upstreamStatuses == [201])
            // What the upstream answered is kept although the client never saw it.
            #expect(exchange.upstreamAnswers.first?.body == Data(#"{"revision":1}"#.utf8))
            #expect(exchange.outcome == .closedWithoutAnswer)
        }
    }

    @Test("a duplicated request reaches the upstream twice, identical, and the client gets the second answer")
    func duplicate() async throws {
        try await ProxiedServer.with(plan: .script([.duplicate])) { fixture throws in
            let copies = Counter()
            await fixture.server.route("PUT /api/notes/*") { _ in .json(#"{"copy":\#(copies.next())}"#) }
            let response = try await fixture.client.send(Self.put("Milk"))
            #expect(response.text == #"{"copy":2}"#)
            let seen = fixture.server.requests
            #expect(seen.count == 2)
            #expect(seen.first == seen.last)
            #expect(seen.first?.header("Idempotency-Key") == "k1")
            #expect(fixture.proxy.exchanges.first?.upstreamStatuses == [200, 200])
            #expect(
                fixture.proxy.exchanges.first?.upstreamAnswers.map(\.body) == [
                    Data(#"{"copy":1}"#.utf8), Data(#"{"copy":2}"#.utf8),
                ])
            #expect(fixture.proxy.exchanges.count == 1)
        }
    }

    @Test("a delayed request reaches the upstream after the client gave up on it")
    func delayOutlivesTheClient() async throws {
        // The delay must outlast the client's giving up (a cancel and its error, local to the
        // test process); 5 s leaves room for a loaded machine without making the test slow.
        try await ProxiedServer.with(plan: .script([.delay(.seconds(5))])) { fixture throws in
            let log = Counter.Log()
            await fixture.server.route("PUT /api/notes/*") { _ in
                log.append("upstream got it")
                return .status(200)
            }
            let call = Task { try await fixture.client.send(Self.put("Milk")) }
            // The proxy has read the request and is sitting on it; the client gives up.
            #expect(try await eventually { fixture.proxy.exchanges.count == 1 })
            call.cancel()
            await #expect(throws: (any Error).self) { try await call.value }
            log.append("client gave up")
            // The request still arrives: a late copy the server must cope with.
            #expect(try await eventually { fixture.server.requests.count == 1 })
            #expect(log.values == ["client gave up", "upstream got it"])
            #expect(try await eventually { fixture.proxy.exchanges.first?.upstreamStatuses == [200] })
        }
    }

    @Test("a delayed answer: the write is committed while the client gives up waiting")
    func delayAnswer() async throws {
        // The answer is held far longer than the test runs: the client gives up and the proxy's stop
        // ends the hold, so the length costs nothing and a loaded machine cannot outrun it.
        try await ProxiedServer.with(plan: .script([.delayAnswer(.seconds(600))])) { fixture throws in
            await fixture.server.route("PUT /api/notes/*", reply: .status(201))
            let call = Task { try await fixture.client.send(Self.put("Milk")) }
            #expect(try await eventually { fixture.proxy.exchanges.first?.upstreamStatuses == [201] })
            #expect(fixture.server.requests.count == 1)
            #expect(fixture.proxy.exchanges.first?.outcome == .inFlight)
            call.cancel()
            await #expect(throws: (any Error).self) { try await call.value }
        }
    }

    @Test("a reordered answer is held until the answer to a later request has gone out")
    func reorder() async throws {
        // The hold ends on the positive event (the later answer going out), never on its limit: the
        // default 2 s is shorter than a loaded machine can take to pass the second request through.
        let options = FaultProxy.Options(reorderHold: .seconds(600))
        try await ProxiedServer.with(plan: .script([.reorder]), options: options) { fixture throws in
            await fixture.server.route("GET /api/notes/*") { request in .text(request.path) }
            let log = Counter.Log()
            let first = Task {
                let response = try await fixture.client.send(HTTPRequest(path: "notes/a"))
                log.append("answer \(response.text ?? "")")
            }
            // The first request has been answered by the upstream and is held by the proxy.
            #expect(try await eventually { fixture.proxy.exchanges.first?.forwardedCount == 1 })
            log.append("second sent")
            let second = try await fixture.client.send(HTTPRequest(path: "notes/b"))
            #expect(second.text == "/api/notes/b")
            try await first.value
            #expect(log.values == ["second sent", "answer /api/notes/a"])
            #expect(fixture.proxy.answerOrder == [1, 0])
            #expect(fixture.proxy.exchanges.first?.releasedAfter == 1)
            #expect(fixture.server.requests.map(\.path) == ["/api/notes/a", "/api/notes/b"])
        }
    }

    @Test("a reordered answer with no later request goes out when the hold runs out")
    func reorderAlone() async throws {
        let options = FaultProxy.Options(reorderHold: .milliseconds(200))
        try await ProxiedServer.with(plan: .always(.reorder), options: options) { fixture throws in
            await fixture.server.route("GET /api/notes", reply: .text("all"))
            #expect(try await fixture.client.send(HTTPRequest(path: "notes")).text == "all")
            #expect(fixture.proxy.exchanges.first?.releasedAfter == nil)
            #expect(fixture.proxy.exchanges.first?.outcome == .answered(status: 200))
        }
    }

    @Test("503 with Retry-After comes from the proxy; the client's retry policy honours it and the retry passes")
    func serviceUnavailable() async throws {
        try await ProxiedServer.with(plan: .script([.serviceUnavailable(retryAfter: 3)])) { fixture throws in
            await fixture.server.route("GET /api/notes", reply: .text("all"))
            let waits = Counter.Log()
            fixture.client.retryPolicy = RetryPolicy(maxAttempts: 2, jitter: false) { waits.append("\($0)") }
            #expect(try await fixture.client.send(HTTPRequest(path: "notes")).text == "all")
            #expect(waits.values == ["\(Duration.seconds(3))"])
            #expect(fixture.server.requests.count == 1)
            #expect(fixture.proxy.exchanges.map(\.outcome) == [.answered(status: 503), .answered(status: 200)])
            #expect(fixture.proxy.exchanges.map(\.forwardedCount) == [0, 1])
        }
    }

    @Test("401 with a Bearer challenge comes from the proxy and never reaches the upstream")
    func unauthorized() async throws {
        try await ProxiedServer.with(plan: .always(.unauthorized)) { fixture throws in
            await fixture.server.route("PUT /api/notes/*", reply: .status(200))
            let error = await Self.failure(fixture.client, Self.put("Milk"))
            #expect(error?.status == 401)
            #expect(error?.headers?["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
            #expect(fixture.server.requests.isEmpty)
        }
    }

    @Test("refused connections: the client cannot connect, nothing is recorded, and the same port accepts again")
    func refuseConnections() async throws {
        try await ProxiedServer.with { fixture throws in
            await fixture.server.route("GET /api/notes", reply: .text("all"))
            await fixture.proxy.refuseConnections()
            #expect(fixture.proxy.isRefusingConnections)
            let error = await Self.failure(fixture.client, HTTPRequest(path: "notes"))
            #expect(error?.isTransport == true, "got \(String(describing: error))")
            #expect(fixture.proxy.exchanges.isEmpty)
            try await fixture.proxy.acceptConnections()
            #expect(!fixture.proxy.isRefusingConnections)
            #expect(try await fixture.client.send(HTTPRequest(path: "notes")).text == "all")
            #expect(fixture.server.requests.count == 1)
        }
    }

    @Test("an upstream that is down is answered 502; moving the upstream port reaches the restarted server")
    func upstreamDown() async throws {
        try await ProxiedServer.with { fixture throws in
            await fixture.server.stop()
            // The stopped server's port is free again, and another test's server in this process may
            // be given it; a socket bound to a port but not listening keeps that port refusing.
            let down = try Socket(domain: Int32(AF_INET), type: .stream)
            defer { try? down.close() }
            try down.bind(to: sockaddr_in.inet(ip4: "127.0.0.1", port: 0))
            guard case .ip4(_, let downPort) = try down.sockname() else {
                Issue.record("no IPv4 port")
                return
            }
            fixture.proxy.upstreamPort = downPort
            let error = await Self.failure(fixture.client, HTTPRequest(path: "notes"))
            #expect(error?.status == 502)
            guard case .upstreamFailed = fixture.proxy.exchanges.first?.outcome else {
                Issue.record("outcome \(String(describing: fixture.proxy.exchanges.first?.outcome))")
                return
            }
            try await withServer { restarted throws in
                await restarted.route("GET /api/notes", reply: .text("back"))
                fixture.proxy.upstreamPort = restarted.port
                #expect(try await fixture.client.send(HTTPRequest(path: "notes")).text == "back")
            }
        }
    }
}

/// A thread-safe counter and log for handlers that run on the server's tasks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }

    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []

        func append(_ entry: String) {
            lock.lock()
            defer { lock.unlock() }
            entries.append(entry)
        }

        var values: [String] {
            lock.lock()
            defer { lock.unlock() }
            return entries
        }
    }
}

/// The example in NetworkingTesting's DocC article, as written there.
@Test("FaultProxy: the DocC article's example")
func aCommittedWriteWhoseAnswerIsLost() async throws {
    try await withServer { server throws in
        await server.route("PUT /api/notes/*", reply: .json(#"{"revision":1}"#))
        let proxy = try await FaultProxy.start(upstreamPort: server.port, plan: .script([.dropResponse]))
        let client = HTTPClient(baseURL: proxy.url("api/"))
        client.retryPolicy = .never
        await #expect(throws: HTTPClientError.self) {
            try await client.send(HTTPRequest(method: .put, path: "notes/1", json: ["text": "Milk"]))
        }
        #expect(server.requests.count == 1)  // the server has it
        #expect(proxy.exchanges[0].upstreamStatuses == [200])
        #expect(proxy.exchanges[0].outcome == .closedWithoutAnswer)
        await proxy.stop()
    }
}
