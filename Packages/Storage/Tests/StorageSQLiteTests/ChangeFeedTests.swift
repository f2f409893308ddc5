import Foundation
import GRDB
import Storage
import StorageSQLite
import Testing

/// Reads the whole feed after `cursor`, page by page; returns the entries and the last cursor.
private func drain<Record>(
    _ store: RecordStore<Record>, after cursor: ChangeCursor?, limit: Int = 2
) async throws -> (entries: [ChangeFeedEntry<Record>], cursor: ChangeCursor) {
    var entries: [ChangeFeedEntry<Record>] = []
    var cursor = cursor
    while true {
        let page = try await store.changes(after: cursor, limit: limit)
        entries += page.entries
        cursor = page.next
        if !page.hasMore { return (entries, page.next) }
    }
}

@Suite("Change feed on SQLite: every write logged with a cursor, in the write's transaction")
struct ChangeFeedTests {
    @Test("inserts, updates and deletes arrive in order, as records and tombstones, page by page")
    func feedOrder() async throws {
        let database = try TemporaryDatabase()
        let notes = try RecordStore<Note>(sqlite: database.url, table: "notes", changeFeed: true)
        try await notes.insert(Note(id: 1, title: "one"))
        try await notes.insert(Note(id: 2, title: "two"))
        try await notes.insert(Note(id: 3, title: "three"))
        let first = try await notes.changes(after: nil, limit: 2)
        #expect(first.entries.map(\.record?.title) == ["one", "two"])
        #expect(first.hasMore)
        let second = try await notes.changes(after: first.next, limit: 2)
        #expect(second.entries.map(\.record?.title) == ["three"])
        #expect(!second.hasMore)
        try await notes.update(Note(id: 1, title: "one!"))
        try await notes.delete(id: 2)
        try await notes.delete(id: 99)  // Deleting nothing logs nothing.
        let (changes, end) = try await drain(notes, after: second.next)
        #expect(changes.count == 2)
        #expect(changes.first?.record == Note(id: 1, title: "one!"))
        guard case .deleted(let deleted)? = changes.last?.change else {
            Issue.record("expected a tombstone, got \(String(describing: changes.last))")
            return
        }
        #expect(deleted == 2 && changes.last?.id == "2" && changes.last?.revision == nil)
        // Nothing new: an empty page keeps the cursor.
        let empty = try await notes.changes(after: end)
        #expect(empty.entries.isEmpty && !empty.hasMore && empty.next == end)
        // Read from the start, the feed holds each record's latest change once.
        let all = try await drain(notes, after: nil).entries
        #expect(all.map(\.id) == ["3", "1", "2"])
        #expect(all.map(\.isDeletion) == [false, false, true])
    }

    @Test("a record changed many times in one batch or many arrives once, as it is now")
    func coalesced() async throws {
        let database = try TemporaryDatabase()
        let notes = try RecordStore<Note>(sqlite: database.url, table: "notes", changeFeed: true)
        let start = try await notes.changes(after: nil).next
        try await notes.write { batch in
            batch.insert(Note(id: 1, title: "a"))
            batch.update(Note(id: 1, title: "b"))
            batch.insert(Note(id: 2, title: "x"))
            batch.save(Note(id: 1, title: "c"))
        }
        for title in ["d", "e", "f"] { try await notes.update(Note(id: 2, title: title)) }
        let entries = try await drain(notes, after: start).entries
        #expect(entries.map(\.record) == [Note(id: 1, title: "c"), Note(id: 2, title: "f")])
    }

    @Test("revisioned records carry their revision, tombstones the one they were deleted at")
    func revisions() async throws {
        let database = try TemporaryDatabase()
        let tickets = try RecordStore<Ticket>(sqlite: database.url, table: "tickets", changeFeed: true)
        try await tickets.insert(Ticket(id: 1, title: "new"))
        try await tickets.insert(Ticket(id: 2, title: "other"))
        try await tickets.update(Ticket(id: 1, title: "edited", revision: 0))
        try await tickets.update(Ticket(id: 2, title: "edited", revision: 0))
        try await tickets.update(Ticket(id: 2, title: "again", revision: 1))
        try await tickets.delete(id: 2)
        let entries = try await drain(tickets, after: nil).entries
        #expect(entries.map(\.id) == ["1", "2"])
        #expect(entries.map(\.revision) == [1, 2])
        #expect(entries.first?.record?.revision == 1)
        #expect(entries.last?.isDeletion == true)
    }

    @Test("a failed batch logs nothing: the log is written in the records' transaction")
    func failedBatch() async throws {
        let database = try TemporaryDatabase()
        let notes = try RecordStore<Note>(sqlite: database.url, table: "notes", changeFeed: true)
        try await notes.insert(Note(id: 1, title: "one"))
        let before = try await notes.changes(after: nil).next
        await #expect(throws: StorageError.self) {
            try await notes.write { batch in
                batch.insert(Note(id: 2, title: "two"))
                batch.insert(Note(id: 1, title: "duplicate"))
            }
        }
        let after = try await notes.changes(after: before)
        #expect(after.entries.isEmpty && after.next == before)
        // Positions taken by the rolled-back batch are not lost: the next write continues at 2.
        try await notes.insert(Note(id: 3, title: "three"))
        let next = try await notes.changes(after: before)
        #expect(next.entries.map(\.id) == ["3"])
        #expect(next.next.description.hasSuffix(".2"))
    }

    @Test("enabling the feed on a table with records logs them, and later opens keep logging")
    func enabledLater() async throws {
        let database = try TemporaryDatabase()
        let plain = try RecordStore<Note>(sqlite: database.url, table: "notes")
        try await plain.insert(Note(id: 1, title: "before"))
        try await plain.insert(Note(id: 2, title: "before too"))
        let error = await #expect(throws: ChangeFeedError.self) { try await plain.changes(after: nil) }
        #expect(error == .notEnabled(in: "\(database.url.path) (table notes)"))
        let fed = try RecordStore<Note>(sqlite: database.url, table: "notes", changeFeed: true)
        #expect(try await drain(fed, after: nil).entries.map(\.id) == ["1", "2"])
        let cursor = try await fed.changes(after: nil).next
        // The backend opened before the feed existed writes through it too (checked per write).
        try await plain.insert(Note(id: 3, title: "after"))
        let reopened = try RecordStore<Note>(sqlite: database.url, table: "notes")
        try await reopened.delete(id: 1)
        #expect(try await drain(reopened, after: cursor).entries.map(\.id) == ["3", "1"])
    }

    @Test("hostile and malformed cursors get a typed error, never a crash or a silent empty page")
    func malformedCursors() async throws {
        let hostile = [
            "", "c1", "abc", "c2.0123456789abcdef0123456789abcdef.1", "c1.0123456789abcdef0123456789abcdef.-1",
            "c1.0123456789ABCDEF0123456789ABCDEF.1", "c1.0123456789abcdef0123456789abcdef.01",
            "c1.0123456789abcdef0123456789abcdef.1\n", "c1.../../etc/passwd.1", "c1.0123456789abcdef0123456789abcdef.",
            "c1.0123456789abcdef0123456789abcdef.99999999999999999999", String(repeating: "c1.", count: 3_500_000),
            "c1.0123456789abcdef0123456789abcdef.1.2", "c1.0123456789abcdef0123456789abcdef.１",
        ]
        for text in hostile {
            let error = #expect(throws: ChangeFeedError.self) { try ChangeCursor(text) }
            guard case .malformedCursor(_, _)? = error else {
                Issue.record(
                    "expected malformedCursor for \(text.prefix(40).debugDescription), got \(String(describing: error))"
                )
                continue
            }
            // The message is short and on one line, whatever the input.
            #expect(error.map { $0.message.count < 300 && !$0.message.contains("\n") } == true)
        }
        // Decoding a cursor from JSON fails as decoding, naming why.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ChangeCursor.self, from: Data("\"x\"".utf8)) }
        let valid = try ChangeCursor("c1.0123456789abcdef0123456789abcdef.42")
        let data = try JSONEncoder().encode(valid)
        #expect(try JSONDecoder().decode(ChangeCursor.self, from: data) == valid)
    }

    @Test("a cursor of another table or database, or past the feed's end, must re-fetch everything")
    func foreignCursors() async throws {
        let database = try TemporaryDatabase()
        let notes = try RecordStore<Note>(sqlite: database.url, table: "notes", changeFeed: true)
        let other = try RecordStore<Note>(sqlite: database.url, table: "archive", changeFeed: true)
        try await notes.insert(Note(id: 1, title: "one"))
        try await other.insert(Note(id: 1, title: "archived"))
        let theirs = try await other.changes(after: nil).next
        let foreign = await #expect(throws: ChangeFeedError.self) { try await notes.changes(after: theirs) }
        #expect(foreign == .foreignCursor(theirs.description, in: "\(database.url.path) (table notes)"))
        #expect(foreign?.requiresFullRefetch == true)
        let mine = try await notes.changes(after: nil).next
        // Only the position changes: the feed id is random hex and may itself hold ".1".
        #expect(mine.description.hasSuffix(".1"))
        let ahead = try ChangeCursor(mine.description.dropLast(2) + ".7")
        let error = await #expect(throws: ChangeFeedError.self) { try await notes.changes(after: ahead) }
        #expect(error == .cursorAhead(ahead.description, in: "\(database.url.path) (table notes)"))
    }

    @Test("a limit below 1 is refused; an oversized one is lowered to the maximum page size")
    func limits() async throws {
        let database = try TemporaryDatabase()
        let notes = try RecordStore<Note>(sqlite: database.url, table: "notes", changeFeed: true)
        try await notes.write { batch in
            for id in 0..<(ChangeFeed.maximumPageSize + 5) { batch.insert(Note(id: id, title: "n\(id)")) }
        }
        for limit in [0, -1, Int.min] {
            let error = await #expect(throws: ChangeFeedError.self) {
                try await notes.changes(after: nil, limit: limit)
            }
            #expect(error == .invalidLimit(limit))
        }
        let page = try await notes.changes(after: nil, limit: Int.max)
        #expect(page.entries.count == ChangeFeed.maximumPageSize)
        #expect(page.hasMore)
        #expect(try await notes.changes(after: page.next, limit: 10_000_000).entries.count == 5)
    }

    @Test("pruning old tombstones expires older cursors; reading from the start still works")
    func retention() async throws {
        let database = try TemporaryDatabase()
        let notes = try RecordStore<Note>(sqlite: database.url, table: "notes", changeFeed: true)
        try await notes.insert(Note(id: 1, title: "one"))
        try await notes.insert(Note(id: 2, title: "two"))
        let early = try await notes.changes(after: nil).next
        try await notes.delete(id: 1)
        let afterDelete = try await notes.changes(after: nil).next
        // Nothing is older than the distant past: nothing pruned, nothing expires.
        #expect(try await notes.pruneTombstones(deletedBefore: .distantPast) == 0)
        #expect(try await notes.changes(after: early).entries.map(\.id) == ["1"])
        #expect(try await notes.pruneTombstones(deletedBefore: Date().addingTimeInterval(1)) == 1)
        let expired = await #expect(throws: ChangeFeedError.self) { try await notes.changes(after: early) }
        #expect(expired == .cursorExpired(early.description, in: "\(database.url.path) (table notes)"))
        #expect(expired?.requiresFullRefetch == true)
        // A client that saw the tombstone reads on; a new client reads the records that remain.
        #expect(try await notes.changes(after: afterDelete).entries.isEmpty)
        #expect(try await drain(notes, after: nil).entries.map(\.id) == ["2"])
        // Saved entries are never pruned, however old.
        #expect(try await notes.pruneTombstones(deletedBefore: .distantFuture) == 0)
    }

    @Test("backends without a feed say so with a typed error")
    func unsupported() async throws {
        let memory = RecordStore<Note>.inMemory()
        let error = await #expect(throws: ChangeFeedError.self) { try await memory.changes(after: nil) }
        guard case .unsupported? = error else {
            Issue.record("expected unsupported, got \(String(describing: error))")
            return
        }
        await #expect(throws: ChangeFeedError.self) { try await memory.pruneTombstones(deletedBefore: Date()) }
    }
}
