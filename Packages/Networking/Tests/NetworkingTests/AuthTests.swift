import Foundation
import Networking
import NetworkingTesting
import Testing

@Suite("Authentication")
struct AuthTests {
    @Test("basic and bearer credentials go in the Authorization header")
    func basicAndBearer() async throws {
        try await withServer { server throws in
            await server.route("GET /api/me") { request in .text(request.header("Authorization") ?? "none") }
            let client = HTTPClient(baseURL: server.apiURL)
            client.auth = .basic(username: "tim", password: "secret")
            #expect(try await client.send(HTTPRequest(path: "me")).text == "Basic dGltOnNlY3JldA==")
            client.auth = .bearer("abc")
            #expect(try await client.send(HTTPRequest(path: "me")).text == "Bearer abc")
            var anonymous = HTTPRequest(path: "me")
            anonymous.authenticated = false
            #expect(try await client.send(anonymous).text == "none")
        }
    }

    @Test("a 401 refreshes the token once and the request is retried with the new one")
    func refreshOn401() async throws {
        try await withServer { server throws in
            await server.route("GET /api/me") { request in
                request.header("Authorization") == "Bearer fresh" ? .text("hello") : .text("expired", status: 401)
            }
            let refreshes = Counter()
            let client = HTTPClient(baseURL: server.apiURL)
            client.auth = .refresher(initialToken: "stale") {
                refreshes.next()
                return "fresh"
            }
            #expect(try await client.send(HTTPRequest(path: "me")).text == "hello")
            #expect(refreshes.count == 1)
            #expect(server.requests.map { $0.header("Authorization") } == ["Bearer stale", "Bearer fresh"])
        }
    }

    @Test("a token that is still refused after a refresh surfaces the 401 without looping")
    func refreshOnlyOnce() async throws {
        try await withServer { server throws in
            await server.route("GET /api/me") { _ in .text("no", status: 401) }
            let refreshes = Counter()
            let client = HTTPClient(baseURL: server.apiURL)
            client.auth = .refresher(initialToken: "t0") { "t\(refreshes.next())" }
            let error = await #expect(throws: HTTPClientError.self) { try await client.send(HTTPRequest(path: "me")) }
            #expect(error?.status == .unauthorized)
            #expect(refreshes.count == 1)
            #expect(server.requests.count == 2)
        }
    }

    @Test("forty concurrent 401s trigger exactly one token refresh")
    func concurrentRefresh() async throws {
        try await withServer { server throws in
            await server.route("GET /api/item") { request in
                request.header("Authorization") == "Bearer fresh" ? .text("ok") : .text("expired", status: 401)
            }
            let refreshes = Counter()
            let client = HTTPClient(baseURL: server.apiURL)
            client.auth = .refresher(initialToken: "stale") {
                refreshes.next()
                try await Task.sleep(for: .milliseconds(50))
                return "fresh"
            }
            let results = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<40 { group.addTask { try await client.send(HTTPRequest(path: "item")).text } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(server.requests.filter { $0.header("Authorization") == "Bearer fresh" }.count == 40)
            #expect(results.count == 40)
            #expect(results.allSatisfy { $0 == "ok" })
            #expect(refreshes.count == 1)
        }
    }

    @Test("credentials are not sent to another origin than the base URL's")
    func noCredentialsElsewhere() async throws {
        try await withServer { home throws in
            try await withServer(host: "127.0.0.2") { other throws in
                await other.route("GET /elsewhere") { request in .text(request.header("Authorization") ?? "none") }
                let client = HTTPClient(baseURL: home.apiURL)
                client.auth = .bearer("secret")
                let reply = try await client.send(HTTPRequest(path: other.baseURL.absoluteString + "elsewhere"))
                #expect(reply.text == "none")
            }
        }
    }
}
