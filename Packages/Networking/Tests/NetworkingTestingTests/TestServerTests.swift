import Foundation
import Networking
import NetworkingTesting
import Testing

@Suite("Loopback test server")
struct TestServerTests {
    @Test("it listens on 127.0.0.1 on an ephemeral port and records what it serves")
    func recordsRequests() async throws {
        try await withServer { server throws in
            #expect(server.host == "127.0.0.1")
            #expect(server.port != 0)
            await server.route("PUT /api/items/*") { request in .json(#"{"echo":"\#(request.text ?? "")"}"#) }
            let client = HTTPClient(baseURL: server.apiURL)
            let response = try await client.send(
                HTTPRequest(
                    method: .put, path: "items/4", query: ["q": "1"],
                    body: .data(Data("hi".utf8), contentType: "text/plain")))
            #expect(response.text == #"{"echo":"hi"}"#)
            #expect(server.requests.map(\.path) == ["/api/items/4"])
            #expect(server.requests.first?.query == ["q": "1"])
        }
    }

    @Test("fixed replies: status, bytes and a redirect the client follows")
    func fixedReplies() async throws {
        try await withServer { server throws in
            await server.route("GET /api/teapot", reply: .status(418))
            await server.route("GET /api/old", reply: .redirect(to: server.url("api/bytes").absoluteString))
            await server.route("GET /api/bytes", reply: .bytes(Data([9, 8, 7])))
            let client = HTTPClient(baseURL: server.apiURL)
            #expect(try await client.send(HTTPRequest(path: "old")).body == Data([9, 8, 7]))
            await #expect(throws: HTTPClientError.self) { try await client.send(HTTPRequest(path: "teapot")) }
        }
    }

    @Test("an unrouted path answers 404 and a stopped server refuses connections")
    func notFoundAndStop() async throws {
        let server = try await TestServer.start()
        let client = HTTPClient(baseURL: server.apiURL)
        client.retryPolicy = .never
        do {
            _ = try await client.send(HTTPRequest(path: "nothing"))
            Issue.record("an unrouted path succeeded")
        } catch let HTTPClientError.unacceptableStatus(status, _, _, _) {
            #expect(status == 404)
        }
        await server.stop()
        await #expect(throws: HTTPClientError.self) { try await client.send(HTTPRequest(path: "nothing")) }
    }
}
