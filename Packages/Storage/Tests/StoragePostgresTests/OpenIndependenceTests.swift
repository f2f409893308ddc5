import Foundation
import Storage
import StoragePostgres
import StoragePostgresTesting
import Testing

@Suite("Opening on PostgreSQL: one table's open never waits for another table's", .timeLimit(.minutes(5)))
struct OpenIndependenceTests {
    /// The first open on a new database creates the feeds table all tables share. Were that
    /// done inside its migration's transaction, every other table opening meanwhile would wait
    /// for the whole of that migration, and on a loaded machine the last of a few would run out
    /// of its open timeout.
    @Test("while the first table's open on a new database holds its migration uncommitted, another table opens")
    func anotherTableOpensMeanwhile() async throws {
        try await PostgresTestServer.with { server in
            let (reached, release) = (Latch(), Latch())
            let configuration = try PostgresRecordBackend<Note>.configuration(from: server.url)
            let held = Task {
                try await PostgresRecordBackend<Note>(
                    configuration: configuration, table: "held", openTimeout: .seconds(120), changeFeed: true,
                    feedPause: { step in
                        guard step == .migrated else { return }
                        await reached.open()
                        await release.wait()
                    })
            }
            await reached.wait()
            let other: PostgresRecordBackend<Note>
            do {
                other = try await PostgresRecordBackend<Note>(
                    url: server.url, table: "other", openTimeout: .seconds(20), changeFeed: true)
            } catch {
                await release.open()
                try? await held.value.shutdown()
                throw error
            }
            // Reaching here means the other table opened while the first one's migration was held.
            await release.open()
            let first = try await held.value
            var feeds = Set<Substring>()
            for backend in [first, other] {
                try await backend.apply([.insert(Note(id: 1, text: backend.table, stars: 1))])
                let page = try await backend.changes(after: nil, limit: 5)
                #expect(page.entries.map(\.record?.text) == [backend.table])
                // A cursor reads `c1.<feed>.<position>`; a missing part leaves "" and fails below.
                feeds.insert(page.next.description.split(separator: ".").dropFirst().first ?? "")
            }
            #expect(feeds.count == 2, "each table has a feed of its own")
            for backend in [first, other] { try await backend.shutdown() }
        }
    }
}
