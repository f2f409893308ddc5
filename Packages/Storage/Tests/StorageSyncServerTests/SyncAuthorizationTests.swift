import Foundation
import HTTPTypes
import Hummingbird
import Storage
import StorageSyncServer
import Testing

@Suite("An authorize hook in front of the sync routes: 401 with a challenge, 403, decided before anything is read")
struct SyncAuthorizationTests {
    /// Tokens of these tests: `writer` may do everything, `reader` may only read.
    static func authorize(_ request: Request, _ access: SyncAccess) throws {
        switch request.headers[.authorization] {
        case "Bearer writer": return
        case "Bearer reader":
            guard access.operation == .read else {
                throw SyncAccessError.forbidden(reason: "This token may only read \(access.path).")
            }
        default: throw SyncAccessError.unauthenticated(challenge: #"Bearer realm="sync""#)
        }
    }

    static func headers(_ token: String?, key: String? = nil, base: Int? = nil) -> HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json", SyncHeader.clientID: "device-a"]
        if let token { fields[.authorization] = "Bearer \(token)" }
        if let key { fields[SyncHeader.idempotencyKey] = key }
        if let base { fields[SyncHeader.baseRevision] = String(base) }
        return fields
    }

    @Test("without credentials every route is 401 with WWW-Authenticate; a reader's write is 403; nothing is written")
    func refusals() async throws {
        try await SyncDatabaseFixture.with(.sqlite) { fixture in
            let store = try await fixture.openStore()
            try await store.insert(SyncNote(id: "n1", text: "kept"))
            let accesses = Accesses()
            let routes = try await SyncRoutes(
                store: store, path: "notes", configuration: SyncConfiguration(maximumBodySize: 4_096))
            try await serving(
                routes,
                authorize: { request, _, access in
                    accesses.append(access)
                    try Self.authorize(request, access)
                }
            ) { http in
                let body = try noteBody(SyncNote(id: "n2", text: "new"))
                let anonymous: [(HTTPRequest.Method, String, Data?)] = [
                    (.get, "/notes/changes", nil), (.post, "/notes", body), (.put, "/notes/n1", body),
                    (.delete, "/notes/n1", nil),
                ]
                for (method, path, body) in anonymous {
                    let reply = try await http.send(method, path, headers: Self.headers(nil), body: body)
                    #expect(reply.status == 401, "\(method) \(path)")
                    #expect(reply.header(.wwwAuthenticate) == #"Bearer realm="sync""#)
                    #expect(reply.header(.contentType) == "application/problem+json")
                    #expect(reply.reason == "unauthenticated")
                    #expect(try reply.json["status"] as? Int == 401)
                }
                // Decided before the headers and the body are read: a write missing every sync
                // header, with a body over the limit, is still a 401, not a 400 or a 413.
                let oversized = try await http.send(
                    .post, "/notes", headers: [.contentType: "application/json"], body: Data(count: 64_000))
                #expect(oversized.status == 401 && oversized.reason == "unauthenticated")
                let wrong = try await http.send(.get, "/notes/changes", headers: Self.headers("forged"))
                #expect(wrong.status == 401)

                let read = try await http.send(.get, "/notes/changes", headers: Self.headers("reader"))
                #expect(read.status == 200 && read.entries.count == 1)
                let edit = try await http.send(
                    .put, "/notes/n1", headers: Self.headers("reader", key: "k1", base: 0),
                    body: try noteBody(SyncNote(id: "n1", text: "changed")))
                #expect(edit.status == 403 && edit.reason == "forbidden")
                #expect(edit.header(.wwwAuthenticate) == nil)
                #expect(try edit.json["detail"] as? String == "This token may only read notes.")
                #expect(try await store.fetch(id: "n1") == SyncNote(id: "n1", text: "kept"))
                #expect(try await store.fetch(id: "n2") == nil)
                #expect(try await store.changes(after: nil).entries.map(\.id) == ["n1"])

                // A refused write leaves no receipt: once allowed, the same key applies.
                let allowed = try await http.send(
                    .put, "/notes/n1", headers: Self.headers("writer", key: "k1", base: 0),
                    body: try noteBody(SyncNote(id: "n1", text: "changed")))
                #expect(allowed.status == 200 && allowed.header(SyncHeader.replayed) == nil)
                let created = try await http.send(
                    .post, "/notes", headers: Self.headers("writer", key: "k2"), body: body)
                #expect(created.status == 201)
                let deleted = try await http.send(
                    .delete, "/notes/n%32", headers: Self.headers("writer", key: "k3", base: 0))
                #expect(deleted.status == 200)
            }
            let seen = accesses.values
            #expect(seen.map(\.path).allSatisfy { $0 == "notes" })
            #expect(
                seen.suffix(3).map(\.operation) == [.update, .create, .delete]
                    && seen.suffix(3).map(\.recordID) == ["n1", nil, "n%32"])
            #expect(seen.prefix(4).map(\.operation) == [.read, .create, .update, .delete])
        }
    }

    @Test("a hook that fails with another error serves nothing: 500, nothing written")
    func failingHook() async throws {
        try await SyncDatabaseFixture.with(.sqlite) { fixture in
            let store = try await fixture.openStore()
            let routes = try await SyncRoutes(store: store, path: "notes")
            try await serving(routes, authorize: { _, _, _ in throw CocoaError(.fileReadUnknown) }) { http in
                let reply = try await http.send(
                    .post, "/notes", headers: Self.headers("writer", key: "k1"),
                    body: try noteBody(SyncNote(id: "n1", text: "x")))
                #expect(reply.status == 500 && reply.reason == "serverError")
                let read = try await http.send(.get, "/notes/changes", headers: Self.headers("writer"))
                #expect(read.status == 500)
                #expect(try await store.fetch(id: "n1") == nil)
            }
        }
    }
}

/// The accesses an authorize hook was asked about; `list` is only touched while `lock` is held.
final class Accesses: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [SyncAccess] = []

    func append(_ access: SyncAccess) { lock.withLock { list.append(access) } }
    var values: [SyncAccess] { lock.withLock { list } }
}
