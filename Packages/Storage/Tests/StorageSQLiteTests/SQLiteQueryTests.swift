import Foundation
import GRDB
import Storage
import StorageSQLite
import Testing

struct Card: Codable, Identifiable, Equatable, Sendable, QueryableRecord {
    var id: Int
    var text: String
    var stars: Int
    var due: Double? = nil
    var done = false

    static let queryableFields: [QueryField<Card>] = [
        QueryField(\.text, "text"), QueryField(\.stars, "stars"), QueryField(\.due, "due"), QueryField(\.done, "done"),
    ]
}

/// The same collection without queryable fields: what an app stored before declaring them.
struct PlainCard: Codable, Identifiable, Sendable {
    var id: Int
    var text: String
    var stars: Int
    var due: Double? = nil
    var done = false
}

struct Ticket: Codable, Identifiable, Equatable, Sendable, RevisionedRecord {
    var id: Int
    var title: String
    var revision = 0
}

@Suite("Key-path queries on SQLite")
struct SQLiteQueryTests {
    static let cards = [
        Card(id: 1, text: "apple", stars: 3, due: 5), Card(id: 2, text: "Banana", stars: 5),
        Card(id: 3, text: "cherry", stars: 3, due: 1, done: true), Card(id: 10, text: "", stars: 1, due: 9),
        Card(id: 4, text: "e\u{301}", stars: 2), Card(id: 5, text: "\u{E9}", stars: 2, due: -1),
    ]

    static let queries: [RecordQuery<Card>] = [
        RecordQuery(where: \.stars >= 3, sortedBy: [.descending(\.stars)], limit: 10),
        RecordQuery(where: \.stars > 4 && \.text != ""),
        RecordQuery(where: !(\.due < 6)),
        RecordQuery(where: \.due != 5),
        RecordQuery(where: \.due == nil || .contains(\.text, "\u{301}")),
        RecordQuery(where: .in(\.due, [nil, 1]) || \.text == "\u{E9}"),
        RecordQuery(sortedBy: [.ascending(\.due)]),
        RecordQuery(sortedBy: [.descending(\.due)], limit: 3, offset: 1),
        RecordQuery(sortedBy: [.ascending(\.text)]),
        RecordQuery(where: \.text < "a" && \.done == false, sortedBy: [.ascending(\.done), .descending(\.text)]),
        RecordQuery(where: .in(\.stars, []), limit: 0),
        RecordQuery(offset: 4),
    ]

    @Test("runs each query in SQLite with the same answers as the file backend")
    func sameAnswersAsFiles() async throws {
        let database = try TemporaryDatabase()
        let sqlite = try RecordStore<Card>(sqlite: database.url, table: "cards")
        let file = try RecordStore<Card>(
            file: "cards.json", in: FileStore(directory: database.folder, durability: .none))
        for store in [sqlite, file] { try await store.write { batch in Self.cards.forEach { batch.insert($0) } } }
        for query in Self.queries {
            let expected = try await file.fetch(query)
            #expect(try await sqlite.fetch(query) == expected)
            #expect(try await sqlite.count(where: query.predicate) == file.count(where: query.predicate))
        }
        #expect(try await sqlite.fetch(Self.queries[0]).map(\.id) == [2, 1, 3])
        #expect(
            try await sqlite.fetch(Self.queries[8]).map(\.id)
                == [2, 10, 1, 3, 4, 5].sorted { a, b in
                    let texts = Dictionary(uniqueKeysWithValues: Self.cards.map { ($0.id, $0.text) })
                    return Array(texts[a, default: ""].utf8).lexicographicallyPrecedes(
                        Array(texts[b, default: ""].utf8))
                })
    }

    @Test("filters with the field's index instead of scanning the table", arguments: ["text", "stars", "due"])
    func usesIndex(_ field: String) async throws {
        let database = try TemporaryDatabase()
        _ = try RecordStore<Card>(sqlite: database.url, table: "cards")
        let predicate: RecordPredicate<Card> =
            switch field {
            case "text": \.text == "apple"
            case "stars": \.stars >= 3
            default: \.due < 2
            }
        let plan = try RecordQuery(where: predicate).plan()
        let (sql, _) = RecordSQL<Card>(dialect: .sqlite, table: "\"cards\"").select("body", plan)
        let queue = try DatabaseQueue(path: database.url.path)
        let details = try await queue.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: [1]).map { $0["detail"] as String }
        }
        #expect(details.contains { $0.contains("USING INDEX cards_q2_\(field)") }, "\(details)")
    }

    @Test("adds columns for newly declared fields and fills them from stored records")
    func migratesExistingTable() async throws {
        let database = try TemporaryDatabase()
        let before = try RecordStore<PlainCard>(sqlite: database.url, table: "cards")
        try await before.insert(PlainCard(id: 1, text: "old", stars: 4))
        try await before.insert(PlainCard(id: 2, text: "older", stars: 1, due: 3))
        let after = try RecordStore<Card>(sqlite: database.url, table: "cards")
        #expect(try await after.fetch(where: \.stars > 2).map(\.id) == [1])
        #expect(try await after.fetch(where: \.due == 3).map(\.id) == [2])
        try await after.insert(Card(id: 3, text: "new", stars: 9))
        #expect(try await after.count(where: \.stars > 2) == 2)
        // Opening again migrates nothing and keeps the data.
        let again = try RecordStore<Card>(sqlite: database.url, table: "cards")
        #expect(try await again.count(where: .contains(\.text, "old")) == 2)
    }

    @Test("reports a damaged stored record while filling a new column, naming the database")
    func migrationOfDamagedRecord() async throws {
        let database = try TemporaryDatabase()
        _ = try RecordStore<PlainCard>(sqlite: database.url, table: "cards")
        let queue = try DatabaseQueue(path: database.url.path)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO cards (id, body) VALUES ('1', ?)", arguments: [Data("{\"id\":".utf8)])
        }
        #expect(throws: StorageError.self) { try RecordStore<Card>(sqlite: database.url, table: "cards") }
    }

    @Test("observes a query: the result set now and after each change, through GRDB ValueObservation")
    func changes() async throws {
        let database = try TemporaryDatabase()
        let cards = try RecordStore<Card>(sqlite: database.url, table: "cards")
        try await cards.insert(Card(id: 1, text: "a", stars: 5))
        var results = try cards.changes(matching: RecordQuery(where: \.stars >= 4)).makeAsyncIterator()
        #expect(try await results.next()?.map(\.id) == [1])
        try await cards.insert(Card(id: 2, text: "b", stars: 4))
        #expect(try await results.next()?.map(\.id) == [1, 2])
        try await cards.insert(Card(id: 3, text: "c", stars: 1))
        try await cards.delete(id: 1)
        #expect(try await results.next()?.map(\.id) == [2])
    }

    @Test("a stale update of a revisioned record is a typed conflict and writes nothing")
    func staleRevision() async throws {
        let database = try TemporaryDatabase()
        let tickets = try RecordStore<Ticket>(sqlite: database.url, table: "tickets")
        try await tickets.insert(Ticket(id: 1, title: "new"))
        var mine = try #require(try await tickets.fetch(id: 1))
        var theirs = mine
        theirs.title = "theirs"
        try await tickets.update(theirs)
        #expect(try await tickets.fetch(id: 1) == Ticket(id: 1, title: "theirs", revision: 1))
        mine.title = "mine"
        let error = await #expect(throws: RecordStoreError.self) { try await tickets.update(mine) }
        #expect(error == .staleRevision(id: "1", expected: 0, stored: 1, in: "\(database.url.path) (table tickets)"))
        await #expect(throws: RecordStoreError.self) { try await tickets.save(mine) }
        #expect(try await tickets.fetch(id: 1)?.title == "theirs")
        await #expect(throws: StorageError.self) { try await tickets.update(Ticket(id: 9, title: "missing")) }
        try await tickets.save(Ticket(id: 9, title: "saved new"))
        #expect(try await tickets.fetch(id: 9)?.revision == 0)
    }
}
