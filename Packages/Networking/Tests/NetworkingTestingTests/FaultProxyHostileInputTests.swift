import Foundation
import Networking
import NetworkingTesting
import Testing

/// Hostile or malformed requests are answered and closed by the proxy itself, never forwarded,
/// and the proxy keeps serving.
@Suite("FaultProxy: hostile input")
struct FaultProxyHostileInputTests {
    @Test("a 1 MB header is refused with 431 (or the connection closed), never forwarded, and the proxy serves on")
    func oversizedHeader() async throws {
        try await ProxiedServer.with { fixture throws in
            await fixture.server.route("GET /api/notes", reply: .text("all"))
            let huge = String(repeating: "x", count: 1_000_000)
            do {
                let response = try await fixture.client.send(HTTPRequest(path: "notes", headers: ["X-Huge": huge]))
                Issue.record("a 1 MB header got \(response.status.code)")
            } catch let error as HTTPClientError {
                // curl may still be writing when the proxy closes; then it sees a reset, not the 431.
                #expect(error.status == 431 || error.isTransport, "got \(error)")
            }
            #expect(fixture.server.requests.isEmpty)
            #expect(fixture.proxy.exchanges.isEmpty)
            #expect(fixture.proxy.rejections.map(\.status) == [431])
            let raw = try await rawExchange(
                port: fixture.proxy.port,
                Array(
                    "GET /api/notes HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "y", count: 70_000))\r\n\r\n".utf8
                ))
            #expect(raw.hasPrefix("HTTP/1.1 431 "))
            #expect(try await fixture.client.send(HTTPRequest(path: "notes")).text == "all")
        }
    }

    @Test(
        "a malformed head gets 400 and is never forwarded",
        arguments: [
            "GET /api/notes HTTP/1.1\nHost: x\r\n\r\n",  // bare LF
            "GET /api/notes HTTP/1.1\r\nHost: x\rX-A: 1\r\n\r\n",  // bare CR
            "GET /api/notes HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n",  // NUL
            "GET /api/notes HTTP/1.1\r\nHost: x\r\n folded: yes\r\n\r\n",  // obs-fold
            "GET /api/notes HTTP/1.1\r\nno colon here\r\n\r\n",
            "GET /api/notes HTTP/1.1\r\nBad Name: 1\r\n\r\n",
            "GET http://elsewhere.example/ HTTP/1.1\r\nHost: x\r\n\r\n",  // absolute-form: not a forward proxy
            "GET /api/notes HTTP/2.0\r\nHost: x\r\n\r\n",
            "GET  /api/notes HTTP/1.1\r\nHost: x\r\n\r\n",
            "PUT /api/notes HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
            "PUT /api/notes HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
            "PUT /api/notes HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n",
            "PUT /api/notes HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
        ])
    func malformed(head: String) async throws {
        try await ProxiedServer.with { fixture throws in
            await fixture.server.route("GET /api/notes", reply: .text("all"))
            await fixture.server.route("PUT /api/notes", reply: .text("stored"))
            let raw = try await rawExchange(port: fixture.proxy.port, Array(head.utf8))
            #expect(raw.hasPrefix("HTTP/1.1 400 "), "answered \(raw.prefix(80))")
            #expect(fixture.server.requests.isEmpty)
            #expect(fixture.proxy.exchanges.isEmpty)
            #expect(fixture.proxy.rejections.map(\.status) == [400])
            #expect(try await fixture.client.send(HTTPRequest(path: "notes")).text == "all")
        }
    }

    @Test("a body over the limit gets 413, an unknown transfer coding 501, neither forwarded")
    func bodyLimits() async throws {
        let options = FaultProxy.Options(maxBodyBytes: 1024)
        try await ProxiedServer.with(options: options) { fixture throws in
            await fixture.server.route("PUT /api/notes", reply: .text("stored"))
            let big = try await rawExchange(
                port: fixture.proxy.port,
                Array("PUT /api/notes HTTP/1.1\r\nContent-Length: 4096\r\n\r\n".utf8)
                    + [UInt8](repeating: 65, count: 4096))
            #expect(big.hasPrefix("HTTP/1.1 413 "))
            let gzip = try await rawExchange(
                port: fixture.proxy.port, Array("PUT /api/notes HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n".utf8))
            #expect(gzip.hasPrefix("HTTP/1.1 501 "))
            #expect(fixture.server.requests.isEmpty)
            #expect(fixture.proxy.rejections.map(\.status) == [413, 501])
        }
    }

    @Test("a chunked body is decoded and forwarded whole; a request cut off midway is dropped")
    func chunkedAndTruncated() async throws {
        try await ProxiedServer.with { fixture throws in
            await fixture.server.route("PUT /api/notes") { request in .text("got \(request.text ?? "")") }
            let chunked = try await rawExchange(
                port: fixture.proxy.port,
                Array(
                    "PUT /api/notes HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n6\r\n world\r\n0\r\nT: 1\r\n\r\n"
                        .utf8))
            #expect(chunked.hasPrefix("HTTP/1.1 200 "))
            #expect(chunked.hasSuffix("got hello world"))
            #expect(fixture.server.requests.map(\.text) == ["hello world"])
            _ = try await rawExchange(
                port: fixture.proxy.port, Array("PUT /api/notes HTTP/1.1\r\nContent-Length: 10\r\n\r\nhalf".utf8))
            #expect(fixture.server.requests.count == 1)
        }
    }
}
