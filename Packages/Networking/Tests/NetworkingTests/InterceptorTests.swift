import Foundation
import Networking
import NetworkingTesting
import Testing
import _KitSupport

@Suite("Interceptors")
struct InterceptorTests {
    struct Tagging: HTTPInterceptor {
        let tag: String
        let log: Locked<[String]>
        func adapt(_ request: OutgoingRequest) async throws -> OutgoingRequest {
            var request = request
            let existing = request.headers["X-Chain"].map { $0 + "," } ?? ""
            request.headers["X-Chain"] = existing + tag
            log.withLock { $0.append("adapt \(tag)") }
            return request
        }
        func inspect(_ response: HTTPResponse) async throws {
            log.withLock { $0.append("inspect \(tag) \(response.status.code)") }
        }
    }

    @Test("interceptors adapt requests and inspect responses in the order listed")
    func order() async throws {
        try await withServer { server throws in
            await server.route("GET /api/x") { request in .text(request.header("X-Chain") ?? "") }
            let log = Locked<[String]>([])
            let client = HTTPClient(baseURL: server.apiURL)
            client.interceptors = [Tagging(tag: "a", log: log), Tagging(tag: "b", log: log)]
            #expect(try await client.send(HTTPRequest(path: "x")).text == "a,b")
            #expect(log.withLock { $0 } == ["adapt a", "adapt b", "inspect a 200", "inspect b 200"])
        }
    }

    @Test("the logging interceptor redacts Authorization and cookies")
    func loggingRedacts() async throws {
        try await withServer { server throws in
            await server.route("GET /api/me") { _ in
                Reply(headers: [("Set-Cookie", "session=abc"), ("Content-Type", "text/plain")], body: Data("me".utf8))
            }
            let lines = Locked<[String]>([])
            let client = HTTPClient(baseURL: server.apiURL)
            client.auth = .bearer("top-secret")
            client.headers["Cookie"] = "id=42"
            client.headers["Proxy-Authorization"] = "Basic cHJveHk="
            client.interceptors = [LoggingInterceptor { line in lines.withLock { $0.append(line) } }]
            try await client.send(HTTPRequest(path: "me"))
            let log = lines.withLock { $0.joined(separator: "\n") }
            #expect(log.contains("→ GET http://127.0.0.1:\(server.port)/api/me"))
            #expect(log.contains("← 200 OK"))
            #expect(log.contains("Authorization: <redacted>"))
            #expect(log.contains("Cookie: <redacted>"))
            #expect(log.contains("Proxy-Authorization: <redacted>"))
            #expect(!log.contains("top-secret"))
            #expect(!log.contains("id=42"))
            #expect(!log.contains("session=abc"))
            #expect(!log.contains("cHJveHk="))
        }
    }
}
