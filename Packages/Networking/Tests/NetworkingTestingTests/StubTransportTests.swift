import Foundation
import Networking
import NetworkingTesting
import Testing

private struct Note: Codable, Sendable, Equatable {
    var id: Int
    var title: String
}

@Suite("Stub transport")
struct StubTransportTests {
    let base = URL(string: "https://example.test/api/")!

    @Test("a stubbed route answers, and the request is recorded with its query, headers and body")
    func cannedAnswer() async throws {
        let transport = StubTransport()
        transport.stub("POST /api/notes") { request in
            .json(#"{"id":7,"title":"\#(request.query["tag"] ?? "")"}"#, status: 201)
        }
        let client = HTTPClient(baseURL: base, transport: transport)
        client.auth = .bearer("token")
        let request = HTTPRequest(method: .post, path: "notes", query: [("tag", "a&b")], json: Note(id: 0, title: "x"))
        let note = try await client.send(request).decode(Note.self)
        #expect(note == Note(id: 7, title: "a&b"))
        let seen = try #require(transport.requests.first)
        #expect(seen.method == "POST")
        #expect(seen.path == "/api/notes")
        #expect(seen.rawQuery == "tag=a%26b")
        #expect(seen.header("authorization") == "Bearer token")
        #expect(try JSONDecoder().decode(Note.self, from: seen.body) == Note(id: 0, title: "x"))
    }

    @Test("a request no stub matches fails with a typed error naming the method and path")
    func unmatched() async throws {
        let transport = StubTransport()
        transport.stub("GET /api/notes", .json("[]"))
        let client = HTTPClient(baseURL: base, transport: transport)
        client.retryPolicy = .never
        do {
            _ = try await client.send(HTTPRequest(method: .delete, path: "notes"))
            Issue.record("an unmatched request succeeded")
        } catch let HTTPClientError.transport(_, underlying) {
            #expect(underlying as? StubTransportError == .unmatched(method: "DELETE", path: "/api/notes"))
            #expect("\(underlying)".contains("DELETE /api/notes"))
        }
        #expect(transport.requests.map(\.method) == ["DELETE"])
    }

    @Test("a later stub overrides an earlier one, and * matches one path segment")
    func overrideAndWildcard() async throws {
        let transport = StubTransport()
        transport.stub("GET /api/notes/*", .text("any"))
        let client = HTTPClient(baseURL: base, transport: transport)
        #expect(try await client.send(HTTPRequest(path: "notes/3")).text == "any")
        transport.stub("GET /api/notes/3", .text("three"))
        #expect(try await client.send(HTTPRequest(path: "notes/3")).text == "three")
        #expect(try await client.send(HTTPRequest(path: "notes/4")).text == "any")
        await #expect(throws: HTTPClientError.self) { try await client.send(HTTPRequest(path: "notes/3/more")) }
    }

    @Test("statuses and redirects go through the client's own handling")
    func statusAndRedirect() async throws {
        let transport = StubTransport()
        transport.stub("GET /api/old", .redirect(to: "https://example.test/api/new"))
        transport.stub("GET /api/new", .bytes(Data([1, 2, 3])))
        transport.stub("GET /api/gone", .status(410))
        let client = HTTPClient(baseURL: base, transport: transport)
        #expect(try await client.send(HTTPRequest(path: "old")).body == Data([1, 2, 3]))
        #expect(transport.requests.map(\.path) == ["/api/old", "/api/new"])
        do {
            _ = try await client.send(HTTPRequest(path: "gone"))
            Issue.record("a 410 was accepted")
        } catch let HTTPClientError.unacceptableStatus(status, _, _, _) {
            #expect(status == 410)
        }
    }

    @Test("a delayed reply is cancelled with its task")
    func delayCancels() async throws {
        let transport = StubTransport()
        transport.stub("GET /api/slow", Reply.text("late").delayed(by: .seconds(60)))
        let client = HTTPClient(baseURL: base, transport: transport)
        let task = Task { try await client.send(HTTPRequest(path: "slow")) }
        while transport.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test("reset forgets stubs and requests")
    func reset() async throws {
        let transport = StubTransport()
        transport.stub("GET /api/a", .text("a"))
        let client = HTTPClient(baseURL: base, transport: transport)
        _ = try await client.send(HTTPRequest(path: "a"))
        transport.reset()
        #expect(transport.requests.isEmpty)
        await #expect(throws: HTTPClientError.self) { try await client.send(HTTPRequest(path: "a")) }
    }
}
