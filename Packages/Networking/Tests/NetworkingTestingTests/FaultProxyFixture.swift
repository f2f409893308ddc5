import FlyingSocks
import Foundation
import Networking
import NetworkingTesting
import Testing

/// A real upstream (TestServer), a FaultProxy in front of it and a client that does not retry,
/// stopped whatever the test does.
struct ProxiedServer {
    let server: TestServer
    let proxy: FaultProxy
    let client: HTTPClient

    static func with<T>(
        plan: FaultPlan = .passThrough, options: FaultProxy.Options = FaultProxy.Options(),
        _ body: (ProxiedServer) async throws -> T
    ) async throws -> T {
        let server = try await TestServer.start()
        let proxy: FaultProxy
        do {
            proxy = try await FaultProxy.start(upstreamPort: server.port, plan: plan, options: options)
        } catch {
            await server.stop()
            throw error
        }
        let client = HTTPClient(baseURL: proxy.url("api/"))
        client.retryPolicy = .never
        // A hang guard like `eventually`'s limit: no test here waits for a timeout to fire.
        client.timeout = .seconds(120)
        let fixture = ProxiedServer(server: server, proxy: proxy, client: client)
        do {
            let result = try await body(fixture)
            await fixture.stop()
            return result
        } catch {
            await fixture.stop()
            throw error
        }
    }

    /// Stops the proxy first (its stop closes every upstream connection it opened), then lets the
    /// server finish the connections it is still reading before stopping it: `TestServer.stop()`
    /// cancels FlyingFox's connection tasks mid-decode, which a CI run of the whole unit set on two
    /// loaded cores once ended with a crash in FlyingFox's `HTTPDecoder.readHeader`.
    func stop() async {
        await proxy.stop()
        #if os(Linux)
            // A hang guard, not a check: a server handler still running (a test's slow reply) is
            // cancelled by the stop below, as before.
            _ = try? await eventually(within: .seconds(10)) {
                (try? serverConnections(port: server.port).isEmpty) ?? true
            }
        #endif
        await server.stop()
    }
}

#if os(Linux)
    /// The server's open connections on `port` (its listening socket excluded), read from /proc/net/tcp.
    func serverConnections(port: UInt16) throws -> [String] {
        try openSockets(localPort: port).filter { line in
            let columns = line.split(separator: " ")
            return columns.count > 3 && columns[3] != "0A"  // 0A: LISTEN
        }
    }
#endif

/// Polls `condition` every 10 ms until it holds or `limit` passes. The limit is a hang guard, not a
/// timing check: it returns as soon as the condition holds, so it is generous (120 s) for a CI run
/// of the whole unit set on two loaded cores, where a loopback exchange has been seen to take
/// more than 20 s.
func eventually(within limit: Duration = .seconds(120), _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// Sends raw bytes to 127.0.0.1:`port`, closes the sending half and reads until the other side closes (at most 1 MiB).
func rawExchange(port: UInt16, _ bytes: [UInt8]) async throws -> String {
    let socket = try await AsyncSocket.connected(to: sockaddr_in.inet(ip4: "127.0.0.1", port: port), timeout: 30)
    defer { try? socket.close() }
    do {
        try await socket.write(Data(bytes))
    } catch {
        // The proxy may close before taking everything (an oversized head); read what it answered.
    }
    // Half-close: the proxy sees the end of the request stream, we can still read its answer.
    _ = shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
    var received: [UInt8] = []
    while received.count < 1 << 20 {
        do {
            received += try await socket.read(atMost: 16 * 1024)
        } catch {
            break
        }
    }
    return String(decoding: received, as: UTF8.self)
}

extension HTTPClientError {
    /// The status of an `unacceptableStatus` error, nil for any other.
    var status: Int? {
        if case .unacceptableStatus(let status, _, _, _) = self { return status.code }
        return nil
    }

    /// The headers of an `unacceptableStatus` error.
    var headers: HTTPHeaders? {
        if case .unacceptableStatus(_, _, let headers, _) = self { return headers }
        return nil
    }

    /// Whether the network failed (no answer at all).
    var isTransport: Bool {
        if case .transport = self { return true }
        return false
    }
}
