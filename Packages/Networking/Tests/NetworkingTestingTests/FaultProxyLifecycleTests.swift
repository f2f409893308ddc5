import Foundation
import Networking
import NetworkingTesting
import Testing

/// Starting and stopping: nothing is left behind, and a stop with requests in flight returns.
@Suite("FaultProxy: start, stop and requests in flight")
struct FaultProxyLifecycleTests {
    @Test("stop with a request in flight returns, ends the exchange and leaves no socket open")
    func stopInFlight() async throws {
        let server = try await TestServer.start()
        await server.route("GET /api/slow", reply: Reply.text("late").delayed(by: .seconds(60)))
        let proxy = try await FaultProxy.start(upstreamPort: server.port)
        let client = HTTPClient(baseURL: proxy.url("api/"))
        client.retryPolicy = .never
        let call = Task { try await client.send(HTTPRequest(path: "slow")) }
        #expect(try await eventually { server.requests.count == 1 })
        let started = ContinuousClock.now
        await proxy.stop()
        // A hang guard: stopping does not wait for the upstream's 60 s answer.
        #expect(ContinuousClock.now - started < .seconds(30))
        await #expect(throws: HTTPClientError.self) { try await call.value }
        #expect(proxy.exchanges.map(\.outcome) == [.abandoned])
        #if os(Linux)
            #expect(try openSockets(localPort: proxy.port).isEmpty, "the proxy's side of a connection is still open")
            #expect(try openSockets(remotePort: server.port).isEmpty, "the proxy's upstream connection is still open")
        #endif
        await proxy.stop()  // a second stop is harmless
        await #expect(throws: HTTPClientError.self) { try await client.send(HTTPRequest(path: "slow")) }
        await server.stop()
    }

    @Test("twenty proxies started and stopped after serving leave no socket behind")
    func startStopCycles() async throws {
        try await withServer { server throws in
            await server.route("GET /api/ping", reply: .text("pong"))
            var ports: [UInt16] = []
            for _ in 0..<20 {
                let proxy = try await FaultProxy.start(upstreamPort: server.port, plan: .script([.dropResponse]))
                let client = HTTPClient(baseURL: proxy.url("api/"))
                client.retryPolicy = .never
                _ = try? await client.send(HTTPRequest(path: "ping"))
                #expect(try await client.send(HTTPRequest(path: "ping")).text == "pong")
                await proxy.stop()
                ports.append(proxy.port)
            }
            #if os(Linux)
                for port in ports { #expect(try openSockets(localPort: port).isEmpty) }
                #expect(try openSockets(remotePort: server.port).isEmpty)
            #endif
        }
    }

    @Test("withFaultProxy stops the proxy when its body throws")
    func withFaultProxyStops() async throws {
        struct Failure: Error {}
        try await withServer { server throws in
            await server.route("GET /api/ping", reply: .text("pong"))
            var port: UInt16 = 0
            await #expect(throws: Failure.self) {
                try await withFaultProxy(upstreamPort: server.port) { proxy in
                    port = proxy.port
                    let client = HTTPClient(baseURL: proxy.url("api/"))
                    #expect(try await client.send(HTTPRequest(path: "ping")).text == "pong")
                    throw Failure()
                }
            }
            let client = HTTPClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)/api/")))
            client.retryPolicy = .never
            await #expect(throws: HTTPClientError.self) { try await client.send(HTTPRequest(path: "ping")) }
        }
    }

    @Test("refusing connections lets a request already in flight finish")
    func refuseKeepsOpenConnections() async throws {
        try await ProxiedServer.with { fixture throws in
            await fixture.server.route("GET /api/slow", reply: Reply.text("done").delayed(by: .milliseconds(300)))
            let call = Task { try await fixture.client.send(HTTPRequest(path: "slow")) }
            #expect(try await eventually { fixture.server.requests.count == 1 })
            await fixture.proxy.refuseConnections()
            #expect(try await call.value.text == "done")
            await #expect(throws: HTTPClientError.self) { try await fixture.client.send(HTTPRequest(path: "slow")) }
        }
    }
}

#if os(Linux)
    /// TCP sockets still owned by a file descriptor (inode ≠ 0) whose local or remote port is the
    /// given one, read from /proc/net/tcp. Closed sockets in TIME_WAIT have no owner and are skipped.
    func openSockets(localPort: UInt16? = nil, remotePort: UInt16? = nil) throws -> [String] {
        let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        return table.split(separator: "\n").dropFirst().filter { line in
            let columns = line.split(separator: " ")
            guard columns.count > 9 else { return false }
            let local = UInt16(columns[1].split(separator: ":").last ?? "", radix: 16)
            let remote = UInt16(columns[2].split(separator: ":").last ?? "", radix: 16)
            guard columns[9] != "0" else { return false }
            if let localPort, local == localPort { return true }
            if let remotePort, remote == remotePort { return true }
            return false
        }.map(String.init)
    }
#endif
