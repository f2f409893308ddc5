import Foundation
import PostgresNIO
import Storage
import StoragePostgres
import StoragePostgresTesting
import Testing

@Suite("Change feed on PostgreSQL: records, tombstones, revisions, cursors, retention", .timeLimit(.minutes(5)))
struct ChangeFeedPostgresTests {
    @Test("writes arrive in order with revisions and tombstones; one entry per record; failed batches log nothing")
    func feed() async throws {
        try await PostgresTestServer.with { server in
            let plain = try await PostgresRecordBackend<Ticket>(url: server.url, table: "tickets")
            try await plain.apply([.insert(Ticket(id: 1, title: "before the feed"))])
            let notEnabled = await #expect(throws: ChangeFeedError.self) {
                try await plain.changes(after: nil, limit: 5)
            }
            guard case .notEnabled? = notEnabled else {
                Issue.record("expected notEnabled, got \(String(describing: notEnabled))")
                return
            }
            let backend = try await PostgresRecordBackend<Ticket>(url: server.url, table: "tickets", changeFeed: true)
            let tickets = RecordStore(backend: backend)
            // The records stored before the feed was made are its first entries.
            let first = try await tickets.changes(after: nil)
            #expect(first.entries.map(\.id) == ["1"])
            try await tickets.insert(Ticket(id: 2, title: "two"))
            try await tickets.update(Ticket(id: 1, title: "edited", revision: 0))
            try await tickets.write { batch in
                batch.insert(Ticket(id: 3, title: "three"))
                batch.delete(id: 2)
                batch.delete(id: 404)
            }
            await #expect(throws: StorageError.self) {
                try await tickets.write { batch in
                    batch.insert(Ticket(id: 4, title: "four"))
                    batch.insert(Ticket(id: 3, title: "duplicate"))
                }
            }
            let page = try await tickets.changes(after: first.next, limit: 2)
            #expect(page.entries.map(\.id) == ["1", "3"])
            #expect(page.entries.first?.record == Ticket(id: 1, title: "edited", revision: 1))
            #expect(page.entries.map(\.revision) == [1, 0])
            #expect(page.hasMore)
            let rest = try await tickets.changes(after: page.next, limit: 2)
            #expect(!rest.hasMore)
            guard case .deleted(let id)? = rest.entries.first?.change, rest.entries.count == 1 else {
                Issue.record("expected one tombstone, got \(rest.entries)")
                return
            }
            #expect(id == 2 && rest.entries.first?.revision == 0)
            // A backend opened without asking keeps the existing feed.
            let reopened = try await PostgresRecordBackend<Ticket>(url: server.url, table: "tickets")
            try await reopened.apply([.delete(1)])
            #expect(try await reopened.changes(after: rest.next, limit: 5).entries.map(\.isDeletion) == [true])
            // `plain` opened before the feed existed and does not log: the table refuses its write
            // at commit rather than keep a change no client would hear of.
            await #expect(throws: StorageError.self) {
                try await plain.apply([.insert(Ticket(id: 9, title: "unlogged"))])
            }
            #expect(try await reopened.fetch(id: 9) == nil)
            for store in [plain, backend, reopened] { try await store.shutdown() }
        }
    }

    @Test("tables opening at once on a new database each get their feed")
    func concurrentOpens() async throws {
        try await PostgresTestServer.with { server in
            let backends = try await withThrowingTaskGroup(of: PostgresRecordBackend<Note>.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        try await PostgresRecordBackend<Note>(url: server.url, table: "notes\(index)", changeFeed: true)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            var feeds = Set<String>()
            for backend in backends {
                try await backend.apply([.insert(Note(id: 1, text: backend.table, stars: 1))])
                let page = try await backend.changes(after: nil, limit: 5)
                #expect(page.entries.map(\.record?.text) == [backend.table])
                feeds.insert(String(page.next.description.split(separator: ".")[1]))
                try await backend.shutdown()
            }
            #expect(feeds.count == 6)
        }
    }

    @Test("bad, foreign, future and expired cursors and bad limits get typed errors")
    func cursors() async throws {
        try await PostgresTestServer.with { server in
            let notes = try await PostgresRecordBackend<Note>(url: server.url, table: "notes", changeFeed: true)
            let other = try await PostgresRecordBackend<Note>(url: server.url, table: "other", changeFeed: true)
            try await notes.apply([
                .insert(Note(id: 1, text: "one", stars: 1)), .insert(Note(id: 2, text: "two", stars: 2)),
            ])
            let theirs = try await other.changes(after: nil, limit: 5).next
            let foreign = await #expect(throws: ChangeFeedError.self) {
                try await notes.changes(after: theirs, limit: 5)
            }
            #expect(foreign?.requiresFullRefetch == true)
            let early = try await notes.changes(after: nil, limit: 1).next
            let end = try await notes.changes(after: nil, limit: 5).next
            // Only the position changes: the feed id is random hex and may itself hold ".2".
            #expect(end.description.hasSuffix(".2"))
            let ahead = try ChangeCursor(end.description.dropLast(2) + ".3")
            let future = await #expect(throws: ChangeFeedError.self) { try await notes.changes(after: ahead, limit: 5) }
            guard case .cursorAhead? = future else {
                Issue.record("expected cursorAhead, got \(String(describing: future))")
                return
            }
            await #expect(throws: ChangeFeedError.invalidLimit(0)) { try await notes.changes(after: nil, limit: 0) }
            #expect(try await notes.changes(after: nil, limit: .max).entries.count == 2)
            try await notes.apply([.delete(1)])
            let sawDelete = try await notes.changes(after: end, limit: 5).next
            #expect(try await notes.pruneTombstones(deletedBefore: .distantPast) == 0)
            #expect(try await notes.pruneTombstones(deletedBefore: Date().addingTimeInterval(60)) == 1)
            let expired = await #expect(throws: ChangeFeedError.self) {
                try await notes.changes(after: early, limit: 5)
            }
            guard case .cursorExpired? = expired else {
                Issue.record("expected cursorExpired, got \(String(describing: expired))")
                return
            }
            #expect(try await notes.changes(after: sawDelete, limit: 5).entries.isEmpty)
            #expect(try await notes.changes(after: nil, limit: 5).entries.map(\.id) == ["2"])
            for store in [notes, other] { try await store.shutdown() }
        }
    }
}
