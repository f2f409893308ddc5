import Foundation
import Networking
import NetworkingTesting
import Testing
import _KitSupport

/// Only headers marked safe to forward follow a redirect to another origin; credentials,
/// session headers and whatever interceptors or the auth added stay at home.
@Suite("Redirect credentials")
struct RedirectCredentialTests {
    /// A client on `home` with auth, cookies, a session header, a header an interceptor adds,
    /// and a request that brings headers of its own.
    static func client(for home: TestServer) -> HTTPClient {
        let client = HTTPClient(baseURL: home.apiURL)
        client.auth = .bearer("secret-token")
        client.headers["Cookie"] = "session=1"
        client.headers["X-API-Key"] = "key-123"
        client.headers["Accept-Language"] = "de"
        client.interceptors = [HeaderInterceptor(["X-Signature": "sig-456"])]
        return client
    }

    static let request = HTTPRequest(path: "away", headers: ["X-Request-Token": "tok-789", "Accept": "text/plain"])

    @Test("a redirect to another host drops session, interceptor, auth and cookie headers; safe ones go along")
    func crossOrigin() async throws {
        try await withServer { home throws in
            try await withServer(host: "127.0.0.2") { other throws in
                await other.route("GET /landing") { _ in .text("landed") }
                await home.route("GET /api/away") { _ in .redirect(to: other.baseURL.absoluteString + "landing") }
                let client = Self.client(for: home)
                let response = try await client.send(Self.request)
                #expect(response.text == "landed")
                let first = try #require(home.requests.first)
                #expect(first.header("X-API-Key") == "key-123")
                #expect(first.header("X-Signature") == "sig-456")
                #expect(first.header("Authorization") == "Bearer secret-token")
                let landed = try #require(other.requests.first)
                for name in ["X-API-Key", "X-Signature", "X-Request-Token", "Authorization", "Cookie"] {
                    #expect(landed.header(name) == nil, "\(name) crossed origins")
                }
                #expect(landed.header("Accept") == "text/plain")
                #expect(landed.header("Accept-Language") == "de")
            }
        }
    }

    @Test("a header marked safe to forward crosses origins; credentials never do")
    func markedSafe() async throws {
        try await withServer { home throws in
            try await withServer(host: "127.0.0.2") { other throws in
                await other.route("GET /landing") { _ in .text("landed") }
                await home.route("GET /api/away") { _ in .redirect(307, to: other.baseURL.absoluteString + "landing") }
                let client = Self.client(for: home)
                var policy = RedirectPolicy.standard
                policy.headersSafeToForward.insert("x-request-token")
                policy.headersSafeToForward.insert("Authorization")
                client.redirectPolicy = policy
                try await client.send(Self.request)
                let landed = try #require(other.requests.first)
                #expect(landed.header("X-Request-Token") == "tok-789")
                #expect(landed.header("Authorization") == nil)
                #expect(landed.header("X-API-Key") == nil)
                #expect(!policy.forwardsAcrossOrigins("Cookie"))
                #expect(policy.forwardsAcrossOrigins("X-REQUEST-TOKEN"))
            }
        }
    }

    @Test("a same-origin redirect keeps every header")
    func sameOrigin() async throws {
        try await withServer { home throws in
            await home.route("GET /api/away") { _ in .redirect(to: "/api/here") }
            await home.route("GET /api/here") { _ in .text("here") }
            let client = Self.client(for: home)
            try await client.send(Self.request)
            let here = try #require(home.requests.last)
            #expect(here.path == "/api/here")
            #expect(here.header("X-API-Key") == "key-123")
            #expect(here.header("X-Signature") == "sig-456")
            #expect(here.header("X-Request-Token") == "tok-789")
            #expect(here.header("Authorization") == "Bearer secret-token")
            #expect(here.header("Cookie") == "session=1")
        }
    }

    @Test("a change of scheme or port alone is another origin")
    func schemeAndPort() throws {
        let request = OutgoingRequest(
            method: .get, url: URL(string: "http://api.example.com/a")!,
            headers: ["X-API-Key": "k", "Accept": "*/*", "Authorization": "Bearer t"])
        for location in ["https://api.example.com/b", "http://api.example.com:8080/b"] {
            let head = ResponseHead(status: 302, headers: ["Location": location], url: request.url)
            let next = try #require(try RedirectPolicy.standard.nextRequest(after: request, head: head))
            #expect(next.headers.map(\.name) == ["Accept"], "\(location)")
        }
        let same = ResponseHead(status: 302, headers: ["Location": "http://API.example.com:80/b"], url: request.url)
        let next = try #require(try RedirectPolicy.standard.nextRequest(after: request, head: same))
        #expect(next.headers.fields.count == 3)
    }

    @Test("the logging interceptor redacts session and interceptor headers by the same rule")
    func loggingRedacts() async throws {
        try await withServer { server throws in
            await server.route("GET /api/away") { _ in .text("ok") }
            let lines = Locked<[String]>([])
            let client = Self.client(for: server)
            client.interceptors.append(LoggingInterceptor { line in lines.withLock { $0.append(line) } })
            try await client.send(Self.request)
            let log = lines.withLock { $0.joined(separator: "\n") }
            for secret in ["key-123", "sig-456", "tok-789", "secret-token", "session=1"] {
                #expect(!log.contains(secret), "\(secret) reached the log")
            }
            #expect(log.contains("X-API-Key: <redacted>"))
            #expect(log.contains("X-Request-Token: <redacted>"))
            #expect(log.contains("Accept: text/plain"))
            #expect(log.contains("Content-Type: text/plain"))
            let shown = LoggingInterceptor.redacted(["X-Trace": "t1"], shown: ["x-trace"])
            #expect(shown == ["X-Trace: t1"])
        }
    }
}
