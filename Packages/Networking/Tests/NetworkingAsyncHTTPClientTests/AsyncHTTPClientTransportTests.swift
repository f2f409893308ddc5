import Foundation
import Networking
import NetworkingAsyncHTTPClient
import NetworkingTesting
import Testing
import _KitSupport

struct Item: Codable, Sendable, Equatable {
    var id: Int
    var name: String
}

@Suite("AsyncHTTPClient transport")
struct AsyncHTTPClientTransportTests {
    let transport = AsyncHTTPClientTransport.shared

    @Test("a GET decodes JSON and the query arrives escaped")
    func getJSON() async throws {
        try await withServer { server throws in
            await server.route("GET /api/items") { _ in .json(#"[{"id":1,"name":"one"}]"#) }
            let client = Networking.HTTPClient(baseURL: server.apiURL, transport: transport)
            let items: [Item] = try await client.get("items", query: ["q": "a&b=c"])
            #expect(items == [Item(id: 1, name: "one")])
            #expect(server.requests.first?.rawQuery == "q=a%26b%3Dc")
        }
    }

    @Test("JSON and file bodies are sent, with upload progress for the file")
    func bodies() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("body.bin")
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 31) })
        try bytes.write(to: file)
        try await withServer { server throws in
            await server.route("POST /api/echo") { request in Reply(body: request.body) }
            let client = Networking.HTTPClient(baseURL: server.apiURL, transport: transport)
            let echoed: Item = try await client.post("echo", json: Item(id: 2, name: "two"))
            #expect(echoed == Item(id: 2, name: "two"))
            let sent = Locked<Int64>(0)
            let response = try await client.upload("echo", file: file) { progress in
                sent.withLock { $0 = progress.completedBytes }
            }
            #expect(response.body == bytes)
            #expect(sent.withLock { $0 } == Int64(bytes.count))
        }
    }

    @Test("cross-origin redirects drop credentials here too, because the client follows them")
    func crossOriginRedirect() async throws {
        try await withServer { home throws in
            try await withServer(host: "127.0.0.2") { other throws in
                await other.route("GET /landing") { request in .text(request.header("Authorization") ?? "none") }
                await home.route("GET /api/away") { _ in .redirect(to: other.baseURL.absoluteString + "landing") }
                let client = Networking.HTTPClient(baseURL: home.apiURL, transport: transport)
                client.auth = .bearer("secret")
                #expect(try await client.send(HTTPRequest(path: "away")).text == "none")
                #expect(home.requests.first?.header("Authorization") == "Bearer secret")
            }
        }
    }

    @Test("a 500 with Retry-After is retried and a 404 is a typed error")
    func statusHandling() async throws {
        try await withServer { server throws in
            let calls = Locked(0)
            await server.route("GET /api/flaky") { _ in
                let call = calls.withLock {
                    $0 += 1; return $0
                }
                return call == 1 ? Reply(status: 500, headers: [("Retry-After", "0")]) : .text("ok")
            }
            await server.route("GET /api/missing") { _ in .text("nope", status: 404) }
            let client = Networking.HTTPClient(baseURL: server.apiURL, transport: transport)
            #expect(try await client.send(HTTPRequest(path: "flaky")).text == "ok")
            let error = await #expect(throws: Networking.HTTPClientError.self) {
                try await client.send(HTTPRequest(path: "missing"))
            }
            #expect(error?.status == .notFound)
        }
    }

    @Test("cancelling the task throws CancellationError")
    func cancellation() async throws {
        try await withServer { server throws in
            let arrived = AsyncStream<Void>.makeStream()
            await server.route("GET /api/slow") { _ in
                arrived.continuation.yield()
                return Reply(delay: .seconds(5))
            }
            let client = Networking.HTTPClient(baseURL: server.apiURL, transport: transport)
            let task = Task { try await client.send(HTTPRequest(path: "slow")) }
            var iterator = arrived.stream.makeAsyncIterator()
            await iterator.next()
            task.cancel()
            let result = await task.result
            #expect(throws: CancellationError.self) { try result.get() }
        }
    }

    @Test("a download streams to the file and is checked before it is moved into place")
    func download() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.url.appendingPathComponent("source.bin")
        let bytes = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try bytes.write(to: source)
        try await withServer { server throws in
            await server.file("GET /api/big.bin", at: source)
            let client = Networking.HTTPClient(baseURL: server.apiURL, transport: transport)
            let destination = directory.url.appendingPathComponent("big.bin")
            let fraction = Locked(0.0)
            let file = try await client.download("big.bin", to: destination) { progress in
                fraction.withLock { $0 = progress.fractionCompleted }
            }
            #expect(try Data(contentsOf: file) == bytes)
            #expect(fraction.withLock { $0 } == 1)
        }
    }

    @Test("a refused connection is a transport error after the retries")
    func connectionRefused() async throws {
        let server = try await TestServer.start()
        let url = server.apiURL
        await server.stop()
        // AsyncHTTPClient keeps retrying a refused connect until its connect timeout.
        var configuration = AsyncHTTPClientTransport.defaultConfiguration()
        configuration.timeout.connect = .milliseconds(300)
        let quick = AsyncHTTPClientTransport(configuration: configuration)
        defer { Task { try await quick.shutdown() } }
        let client = Networking.HTTPClient(baseURL: url, transport: quick)
        let attempts = Locked(0)
        client.retryPolicy = RetryPolicy(maxAttempts: 2, sleep: { _ in attempts.withLock { $0 += 1 } })
        let error = await #expect(throws: Networking.HTTPClientError.self) {
            try await client.send(HTTPRequest(path: "x"))
        }
        guard case .transport(_, let underlying) = try #require(error) else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        let code = (underlying as? URLError)?.code
        #expect(code == .cannotConnectToHost || code == .timedOut)
        #expect(attempts.withLock { $0 } == 1)
    }

    @Test("a transport it creates can be shut down")
    func ownTransport() async throws {
        let own = AsyncHTTPClientTransport()
        try await withServer { server throws in
            await server.route("GET /api/ping") { _ in .text("pong") }
            let client = Networking.HTTPClient(baseURL: server.apiURL, transport: own)
            #expect(try await client.send(HTTPRequest(path: "ping")).text == "pong")
        }
        try await own.shutdown()
    }
}
