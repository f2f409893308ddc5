import Foundation
import Networking
import NetworkingTesting
import Testing

/// Sharing identical GETs never hands one user's response to another: the key is what goes on
/// the wire, auth and session headers included.
@Suite("Shared GETs and who asks")
struct SharedGETIdentityTests {
    /// Starts `first`, waits until the server has it, then starts `second` while it is in flight.
    static func overlapping(
        _ server: TestServer, _ first: @escaping @Sendable () async throws -> String?,
        then change: () -> Void, _ second: @escaping @Sendable () async throws -> String?
    ) async throws -> (String?, String?) {
        let before = server.requests.count
        let one = Task { try await first() }
        while server.requests.count == before { try await Task.sleep(for: .milliseconds(5)) }
        change()
        let two = Task { try await second() }
        return (try await one.value, try await two.value)
    }

    @Test("after the token changes, a GET in flight for the old user is not shared")
    func authSwitch() async throws {
        try await withServer { server throws in
            await server.route("GET /api/me") { request in
                Reply(body: Data((request.header("Authorization") ?? "none").utf8), delay: .milliseconds(500))
            }
            let client = HTTPClient(baseURL: server.apiURL)
            client.sharesIdenticalGETs = true
            client.auth = .bearer("alice")
            let (alice, bob) = try await Self.overlapping(
                server, { try await client.send(HTTPRequest(path: "me")).text },
                then: { client.auth = .bearer("bob") }, { try await client.send(HTTPRequest(path: "me")).text })
            #expect(alice == "Bearer alice")
            #expect(bob == "Bearer bob")
            #expect(server.requests.count == 2)
        }
    }

    @Test("after a session header or cookie changes, a GET in flight is not shared")
    func sessionHeaderSwitch() async throws {
        try await withServer { server throws in
            await server.route("GET /api/me") { request in
                let who = (request.header("X-API-Key") ?? "-") + "|" + (request.header("Cookie") ?? "-")
                return Reply(body: Data(who.utf8), delay: .milliseconds(500))
            }
            let client = HTTPClient(baseURL: server.apiURL)
            client.sharesIdenticalGETs = true
            client.headers["X-API-Key"] = "alice-key"
            let (alice, bob) = try await Self.overlapping(
                server, { try await client.send(HTTPRequest(path: "me")).text },
                then: { client.headers["X-API-Key"] = "bob-key" },
                { try await client.send(HTTPRequest(path: "me")).text })
            #expect(alice == "alice-key|-")
            #expect(bob == "bob-key|-")
            client.headers["Cookie"] = "user=carol"
            let (carol, dave) = try await Self.overlapping(
                server, { try await client.send(HTTPRequest(path: "me")).text },
                then: { client.headers["Cookie"] = "user=dave" },
                { try await client.send(HTTPRequest(path: "me")).text })
            #expect(carol == "bob-key|user=carol")
            #expect(dave == "bob-key|user=dave")
            #expect(server.requests.count == 4)
        }
    }

    @Test("the same user's identical GETs are still shared")
    func sameUserShares() async throws {
        try await withServer { server throws in
            await server.route("GET /api/me") { request in
                Reply(body: Data((request.header("Authorization") ?? "none").utf8), delay: .milliseconds(500))
            }
            let client = HTTPClient(baseURL: server.apiURL)
            client.sharesIdenticalGETs = true
            client.auth = .bearer("alice")
            let (one, two) = try await Self.overlapping(
                server, { try await client.send(HTTPRequest(path: "me")).text }, then: {},
                { try await client.send(HTTPRequest(path: "me")).text })
            #expect(one == "Bearer alice" && two == "Bearer alice")
            #expect(server.requests.count == 1)
        }
    }
}
