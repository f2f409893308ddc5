import Foundation
import Networking
import NetworkingTesting
import Testing

@Suite("Redirects and request safety")
struct SecurityTests {
    @Test("a redirect to another origin drops Authorization, Proxy-Authorization, cookies and session headers")
    func crossOriginRedirect() async throws {
        try await withServer { home throws in
            try await withServer(host: "127.0.0.2") { other throws in
                await other.route("GET /landing") { _ in .text("landed") }
                await home.route("GET /api/away") { _ in .redirect(to: other.baseURL.absoluteString + "landing") }
                let client = HTTPClient(baseURL: home.apiURL)
                client.auth = .bearer("secret")
                client.headers["Cookie"] = "session=1"
                client.headers["Proxy-Authorization"] = "Basic eDp5"
                client.headers["X-Trace"] = "dropped"
                let response = try await client.send(HTTPRequest(path: "away"))
                #expect(response.text == "landed")
                #expect(response.url.host == "127.0.0.2")
                #expect(home.requests.first?.header("Authorization") == "Bearer secret")
                let landed = try #require(other.requests.first)
                #expect(landed.header("Authorization") == nil)
                #expect(landed.header("Proxy-Authorization") == nil)
                #expect(landed.header("Cookie") == nil)
                // A session header is dropped too: only headers marked safe cross origins.
                #expect(landed.header("X-Trace") == nil)
            }
        }
    }

    @Test("a redirect to another port of the same host is another origin too")
    func crossPortRedirect() async throws {
        try await withServer { home throws in
            try await withServer { other throws in
                await other.route("GET /landing") { request in .text(request.header("Authorization") ?? "none") }
                await home.route("GET /api/away") { _ in .redirect(307, to: other.baseURL.absoluteString + "landing") }
                let client = HTTPClient(baseURL: home.apiURL)
                client.auth = .basic(username: "a", password: "b")
                #expect(try await client.send(HTTPRequest(path: "away")).text == "none")
            }
        }
    }

    @Test("a same-origin redirect keeps credentials, and 303 turns a POST into a GET")
    func sameOriginRedirect() async throws {
        try await withServer { server throws in
            await server.route("POST /api/create") { _ in .redirect(303, to: "/api/created") }
            await server.route("GET /api/created") { request in .text(request.header("Authorization") ?? "none") }
            let client = HTTPClient(baseURL: server.apiURL)
            client.auth = .bearer("t")
            let response = try await client.send(HTTPRequest(method: .post, path: "create", json: ["a": "b"]))
            #expect(response.text == "Bearer t")
            #expect(server.requests.map(\.method) == ["POST", "GET"])
            #expect(server.requests.last?.body.isEmpty == true)
        }
    }

    @Test("a redirect loop stops at the limit")
    func redirectLimit() async throws {
        try await withServer { server throws in
            await server.route("GET /api/loop") { _ in .redirect(to: "/api/loop") }
            let client = HTTPClient(baseURL: server.apiURL)
            client.redirectPolicy = RedirectPolicy(limit: 3)
            let error = await #expect(throws: HTTPClientError.self) { try await client.send(HTTPRequest(path: "loop")) }
            guard case .tooManyRedirects(let limit, _) = try #require(error) else {
                Issue.record("expected tooManyRedirects, got \(String(describing: error))")
                return
            }
            #expect(limit == 3)
            #expect(server.requests.count == 4)
        }
    }

    @Test("redirects can be turned off, returning the 3xx itself")
    func redirectsOff() async throws {
        try await withServer { server throws in
            await server.route("GET /api/moved") { _ in .redirect(301, to: "/elsewhere") }
            let client = HTTPClient(baseURL: server.apiURL)
            client.redirectPolicy = RedirectPolicy(follows: false)
            client.acceptableStatus = Set(200..<400)
            let response = try await client.send(HTTPRequest(path: "moved"))
            #expect(response.status.code == 301)
            #expect(response.headers["Location"] == "/elsewhere")
        }
    }

    @Test("an https to http redirect is refused")
    func insecureRedirect() throws {
        let request = OutgoingRequest(
            method: .get, url: URL(string: "https://api.example.com/a")!, headers: ["Authorization": "Bearer x"])
        let head = ResponseHead(
            status: 302, headers: ["Location": "http://api.example.com/b"], url: request.url)
        #expect(throws: HTTPClientError.self) { try RedirectPolicy.standard.nextRequest(after: request, head: head) }
        let upgrade = ResponseHead(status: 302, headers: ["Location": "https://cdn.example.com/b"], url: request.url)
        let next = try #require(try RedirectPolicy.standard.nextRequest(after: request, head: upgrade))
        #expect(next.headers["Authorization"] == nil)
    }

    @Test(
        "CR or LF in a header value, a header name or a path is rejected before anything is sent",
        arguments: [
            HTTPRequest(path: "ok", headers: ["X-Evil": "a\r\nX-Injected: 1"]),
            HTTPRequest(path: "ok", headers: ["X-Evil": "line\nfeed"]),
            HTTPRequest(path: "ok", headers: ["Bad Name": "v"]),
            HTTPRequest(path: "ok\r\nHost: evil"),
            HTTPRequest(path: "ok%0D%0A", headers: ["X": "\0"]),
        ])
    func crlfRejected(_ request: HTTPRequest) async throws {
        try await withServer { server throws in
            await server.route("/api/*") { _ in .text("reached") }
            let client = HTTPClient(baseURL: server.apiURL)
            await #expect(throws: HTTPClientError.self) { try await client.send(request) }
            #expect(server.requests.isEmpty)
        }
    }

    @Test("a header added by an interceptor is validated too")
    func interceptorHeadersValidated() async throws {
        struct Evil: HTTPInterceptor {
            func adapt(_ request: OutgoingRequest) async throws -> OutgoingRequest {
                var request = request
                request.headers["X-Evil"] = "a\r\nb"
                return request
            }
        }
        try await withServer { server throws in
            await server.route("/api/*") { _ in .text("reached") }
            let client = HTTPClient(baseURL: server.apiURL)
            client.interceptors = [Evil()]
            await #expect(throws: HTTPClientError.self) { try await client.send(HTTPRequest(path: "x")) }
            #expect(server.requests.isEmpty)
        }
    }

    @Test("TLS is validated: an https request to a plain-HTTP port fails instead of being accepted")
    func tlsNotDisabled() async throws {
        try await withServer { server throws in
            await server.route("/api/*") { _ in .text("plain") }
            let client = HTTPClient(baseURL: URL(string: "https://127.0.0.1:\(server.port)/api/")!)
            client.retryPolicy = .never
            await #expect(throws: HTTPClientError.self) { try await client.send(HTTPRequest(path: "x")) }
        }
    }
}
