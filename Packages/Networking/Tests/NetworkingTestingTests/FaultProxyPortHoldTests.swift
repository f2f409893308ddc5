import Foundation
import Networking
import NetworkingTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A proxy refusing connections keeps its port, so accepting again never finds it taken: a test
/// imitating a server that goes down and comes back must not fail because of the port.
@Suite("FaultProxy: the port is kept while connections are refused")
struct FaultProxyPortHoldTests {
    /// Binds a plain TCP socket (no address or port reuse) to 127.0.0.1:`port`, as a socket
    /// picking that port for itself would; returns its descriptor, or the bind's `errno`.
    static func bindPlain(_ port: UInt16) -> Result<Int32, POSIXError> {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return .failure(POSIXError(.EMFILE)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EINVAL
            close(descriptor)
            return .failure(POSIXError(code))
        }
        return .success(descriptor)
    }

    @Test("while refusing, no other socket can bind the port; accepting again serves requests")
    func portHeldWhileRefusing() async throws {
        try await ProxiedServer.with { fixture throws in
            await fixture.server.route("GET /api/ping", reply: Reply.text("pong"))
            // Before any connection, so nothing but the proxy's own sockets is bound to its port
            // (a connection's sockets, open or in TIME_WAIT, would refuse a plain bind too).
            await fixture.proxy.refuseConnections()
            #expect(fixture.proxy.isRefusingConnections)
            switch Self.bindPlain(fixture.proxy.port) {
            case .success(let descriptor):
                close(descriptor)
                Issue.record("port \(fixture.proxy.port) was free while the proxy refused connections")
            case .failure(let error):
                #expect(error.code == .EADDRINUSE)
            }
            await #expect(throws: HTTPClientError.self) { try await fixture.client.send(HTTPRequest(path: "ping")) }
            try await fixture.proxy.acceptConnections()
            #expect(!fixture.proxy.isRefusingConnections)
            #expect(try await fixture.client.send(HTTPRequest(path: "ping")).text == "pong")
        }
    }

    @Test("refusing and accepting twice in a row, three times over, serves after each accept")
    func repeated() async throws {
        try await ProxiedServer.with { fixture throws in
            await fixture.server.route("GET /api/ping", reply: Reply.text("pong"))
            for _ in 0..<3 {
                await fixture.proxy.refuseConnections()
                await fixture.proxy.refuseConnections()
                #expect(fixture.proxy.isRefusingConnections)
                await #expect(throws: HTTPClientError.self) {
                    try await fixture.client.send(HTTPRequest(path: "ping"))
                }
                try await fixture.proxy.acceptConnections()
                try await fixture.proxy.acceptConnections()
                #expect(try await fixture.client.send(HTTPRequest(path: "ping")).text == "pong")
            }
        }
    }

    @Test("stopping while refusing frees the port, and a stopped proxy does not listen again")
    func stopFreesPort() async throws {
        try await ProxiedServer.with { fixture throws in
            await fixture.proxy.refuseConnections()
            await fixture.proxy.stop()
            switch Self.bindPlain(fixture.proxy.port) {
            case .success(let descriptor): close(descriptor)
            case .failure(let error): Issue.record("port \(fixture.proxy.port) still held after stop: \(error)")
            }
            try await fixture.proxy.acceptConnections()
            #expect(!fixture.proxy.isRefusingConnections)
            await #expect(throws: HTTPClientError.self) { try await fixture.client.send(HTTPRequest(path: "ping")) }
        }
    }
}
