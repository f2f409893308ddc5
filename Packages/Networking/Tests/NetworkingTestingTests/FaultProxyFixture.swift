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
        client.timeout = .seconds(30)
        let fixture = ProxiedServer(server: server, proxy: proxy, client: client)
        do {
            let result = try await body(fixture)
            await proxy.stop()
            await server.stop()
            return result
        } catch {
            await proxy.stop()
            await server.stop()
            throw error
        }
    }
}

/// Polls `condition` every 10 ms until it holds or `limit` passes (a hang guard, not a timing check).
func eventually(within limit: Duration = .seconds(20), _ condition: () -> Bool) async throws -> Bool {
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
