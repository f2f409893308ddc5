import Foundation
import Storage
import StorageSyncServer
import Testing

@Suite("GET /<resource>/changes: pages to the end, refuses bad input with 400, and a lost cursor with 410")
struct ChangesRouteTests {
    @Test(
        "a client pages through every change, in order, to an empty page at the end", arguments: SyncDatabase.allCases)
    func pagingToTheEnd(_ database: SyncDatabase) async throws {
        try await SyncDatabaseFixture.with(database) { fixture in
            let store = try await fixture.openStore()
            for number in 1...25 { try await store.insert(SyncNote(id: "n\(number)", text: "note \(number)")) }
            try await store.update(SyncNote(id: "n3", text: "edited", revision: 0))
            try await store.delete(id: "n7")
            let routes = try await SyncRoutes(store: store, path: "notes")
            try await serving(routes) { http in
                var cursor: String?
                var seen: [String] = []
                var pages = 0
                var more = true
                while more {
                    let page = try await http.changes(after: cursor, limit: 10)
                    #expect(page.status == 200)
                    #expect(page.header(.contentType) == "application/json")
                    let json = try page.json
                    #expect(json["protocol"] as? Int == 1)
                    #expect(page.entries.count <= 10)
                    seen += page.entries.compactMap { $0["id"] as? String }
                    cursor = try #require(json["next"] as? String)
                    more = try #require(json["hasMore"] as? Bool)
                    pages += 1
                }
                // One entry per record, at its latest change: n3 after its edit, n7 as a tombstone.
                let expected = (1...25).map { "n\($0)" }.filter { $0 != "n3" && $0 != "n7" } + ["n3", "n7"]
                #expect(seen == expected)
                #expect(pages == 3)
                let end = try await http.changes(after: cursor, limit: 10)
                #expect(end.entries.isEmpty)
                #expect(try end.json["next"] as? String == cursor)
                #expect(try end.json["hasMore"] as? Bool == false)
                let all = try await http.changes(limit: 100).entries
                let edited = try #require(all.first { $0["id"] as? String == "n3" })
                #expect(edited["op"] as? String == "saved" && edited["revision"] as? Int == 1)
                #expect((edited["record"] as? [String: Any])?["text"] as? String == "edited")
                let tombstone = try #require(all.first { $0["id"] as? String == "n7" })
                #expect(tombstone["op"] as? String == "deleted" && tombstone["revision"] as? Int == 0)
                #expect(tombstone["record"] == nil)
                // A limit over the maximum is lowered to it, not refused.
                #expect(try await http.changes(limit: 5_000).status == 200)
            }
        }
    }

    @Test("a malformed cursor or a bad limit is 400 with a typed reason, whatever the bytes")
    func badInput() async throws {
        try await SyncDatabaseFixture.with(.sqlite) { fixture in
            let routes = try await SyncRoutes(store: try await fixture.openStore(), path: "notes")
            try await serving(routes) { http in
                let cursors = [
                    "garbage", "", "c1.zz.1", "c2.00000000000000000000000000000000.1", "%0Ac1", "..%2F..",
                    String(repeating: "c", count: 70_000),
                ]
                for cursor in cursors {
                    let reply = try await http.send(.get, "/notes/changes?after=\(cursor)")
                    #expect(reply.status == 400, "after=\(cursor.prefix(40))")
                    #expect(reply.reason == "malformedCursor")
                    #expect(reply.header(.contentType) == "application/problem+json")
                    #expect(reply.body.count < 1_000)
                }
                let twice = try await http.send(.get, "/notes/changes?after=a&after=b")
                #expect(twice.status == 400 && twice.reason == "malformedCursor")
                for limit in ["0", "-1", "abc", "", "1.5", "+5", "99999999999999999999999", "0x10"] {
                    let reply = try await http.send(.get, "/notes/changes?limit=\(limit)")
                    #expect(reply.status == 400, "limit=\(limit)")
                    #expect(reply.reason == "invalidLimit")
                }
            }
        }
    }

    @Test(
        "a cursor the feed can no longer honour is 410 with refetch and a typed reason",
        arguments: SyncDatabase.allCases)
    func refetch(_ database: SyncDatabase) async throws {
        try await SyncDatabaseFixture.with(database) { fixture in
            let store = try await fixture.openStore()
            let others = try await fixture.openStore(table: "others")
            try await store.insert(SyncNote(id: "a", text: "kept"))
            try await store.insert(SyncNote(id: "b", text: "deleted"))
            let early = try await store.changes(after: nil, limit: 1).next
            try await store.delete(id: "b")
            let foreign = try await others.changes(after: nil).next
            let routes = try await SyncRoutes(store: store, path: "notes")
            try await serving(routes) { http in
                #expect(try await http.changes(after: early.description).status == 200)
                // The tombstone of b is dropped: a client at `early` would never hear of the delete.
                let pruned = try await routes.pruneExpired(now: Date().addingTimeInterval(31 * 86_400))
                #expect(pruned.tombstones == 1)
                let expired = try await http.changes(after: early.description)
                #expect(expired.status == 410)
                #expect(expired.reason == "cursorExpired")
                #expect(try expired.json["refetch"] as? Bool == true)
                #expect(expired.header(.contentType) == "application/problem+json")
                let other = try await http.changes(after: foreign.description)
                #expect(other.status == 410 && other.reason == "foreignCursor")
                // Past the end: a database restored from a backup older than the client's cursor.
                let feed = early.description.split(separator: ".")[1]
                let ahead = try await http.changes(after: "c1.\(feed).999999")
                #expect(ahead.status == 410 && ahead.reason == "cursorAhead")
                // Reading from the start always works, and holds only the live record.
                let fresh = try await http.changes()
                #expect(fresh.status == 200)
                #expect(fresh.entries.compactMap { $0["id"] as? String } == ["a"])
            }
        }
    }
}
