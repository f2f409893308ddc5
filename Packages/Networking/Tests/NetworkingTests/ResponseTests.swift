import Foundation
import Networking
import NetworkingTesting
import Testing

@Suite("Responses")
struct ResponseTests {
    @Test("bodies decode by content type: JSON, property list, text in its charset, raw data")
    func decodingByContentType() async throws {
        try await withServer { server throws in
            await server.route("GET /api/json") { _ in .json(#"{"id":7,"text":"seven"}"#) }
            await server.route("GET /api/plist") { _ in
                let data = try PropertyListEncoder().encode(Note(id: 8, text: "eight"))
                return Reply(headers: [("Content-Type", "application/x-plist")], body: data)
            }
            await server.route("GET /api/latin1") { _ in
                Reply(
                    headers: [("Content-Type", "text/plain; charset=iso-8859-1")],
                    body: "café".data(using: .isoLatin1)!)
            }
            await server.route("GET /api/bytes") { _ in
                Reply(headers: [("Content-Type", "application/octet-stream")], body: Data([9, 8, 7]))
            }
            let client = HTTPClient(baseURL: server.apiURL)
            #expect(try await client.get("json") == Note(id: 7, text: "seven"))
            #expect(try await client.get("plist") == Note(id: 8, text: "eight"))
            let text: String = try await client.get("latin1")
            #expect(text == "café")
            let bytes: Data = try await client.get("bytes")
            #expect(bytes == Data([9, 8, 7]))
            await #expect(throws: HTTPClientError.self) {
                let _: Note = try await client.get("bytes")
            }
        }
    }

    @Test("a 404 throws a typed error with the status, the body, the request and words")
    func unacceptableStatus() async throws {
        try await withServer { server throws in
            await server.route("GET /api/missing") { _ in .json(#"{"error":"no such note"}"#, status: 404) }
            let client = HTTPClient(baseURL: server.apiURL)
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.send(HTTPRequest(path: "missing"))
            }
            let thrown = try #require(error)
            #expect(thrown.status == .notFound)
            #expect(String(decoding: thrown.body ?? Data(), as: UTF8.self) == #"{"error":"no such note"}"#)
            guard case .unacceptableStatus(_, _, _, let request) = thrown else {
                Issue.record("wrong case")
                return
            }
            #expect(request.url.path == "/api/missing")
            #expect(thrown.message.contains("GET http://127.0.0.1:\(server.port)/api/missing answered 404 Not Found"))
            #expect(thrown.message.contains("no such note"))
        }
    }

    @Test("acceptable statuses are configurable per client and per request")
    func configurableStatus() async throws {
        try await withServer { server throws in
            await server.route("GET /api/gone") { _ in .text("gone", status: 410) }
            let client = HTTPClient(baseURL: server.apiURL)
            var request = HTTPRequest(path: "gone")
            request.acceptableStatus = [200, 410]
            #expect(try await client.send(request).status.code == 410)
            client.acceptableStatus = Set(200..<500)
            #expect(try await client.send(HTTPRequest(path: "gone")).text == "gone")
        }
    }

    @Test("a body over the size limit is refused, whether or not it announced its length")
    func sizeLimit() async throws {
        try await withServer { server throws in
            await server.route("GET /api/big") { _ in Reply(body: Data(count: 10_000)) }
            let client = HTTPClient(baseURL: server.apiURL)
            client.maxResponseSize = 1_000
            let error = await #expect(throws: HTTPClientError.self) {
                try await client.send(HTTPRequest(path: "big"))
            }
            guard case .responseTooLarge(let limit, _) = try #require(error) else {
                Issue.record("expected responseTooLarge, got \(String(describing: error))")
                return
            }
            #expect(limit == 1_000)
        }
    }

    @Test("a HEAD of a body larger than the limit is fine: no body comes")
    func headIgnoresLimit() async throws {
        try await withServer { server throws in
            await server.route("HEAD /api/big") { _ in Reply(headers: [("Content-Length", "5000")]) }
            let client = HTTPClient(baseURL: server.apiURL)
            client.maxResponseSize = 1_000
            let response = try await client.head("big")
            #expect(response.status == .ok)
            #expect(response.body.isEmpty)
            #expect(response.headers["Content-Length"] == "5000")
        }
    }

    @Test("status prints with its reason phrase")
    func statusDescription() {
        #expect(HTTPStatus(422).description == "422 Unprocessable Content")
        #expect(HTTPStatus.ok.isSuccess)
        #expect(!HTTPStatus(302).isSuccess)
    }
}
