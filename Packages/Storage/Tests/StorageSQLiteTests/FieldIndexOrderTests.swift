import Foundation
import GRDB
import Storage
import StorageSQLite
import Testing

/// A field's index is on (field, id): an equality query reads its matches in id order straight
/// from the index, with no sort, and databases made with the older field-only index move to it.
@Suite("SQLite field indexes hold matches in id order")
struct FieldIndexOrderTests {
    /// SQLite's plan for `predicate` on a `cards` table.
    func plan(_ predicate: RecordPredicate<Card>, in database: TemporaryDatabase) async throws -> [String] {
        let plan = try RecordQuery(where: predicate).plan()
        let (sql, bindings) = RecordSQL<Card>(dialect: .sqlite, table: "\"cards\"").select("body", plan)
        let arguments = StatementArguments(bindings.map { _ in 1 })
        let queue = try DatabaseQueue(path: database.url.path)
        return try await queue.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }

    @Test("an equality or nil query searches the field's index and needs no sort; a range still sorts")
    func equalityNeedsNoSort() async throws {
        let database = try TemporaryDatabase()
        _ = try RecordStore<Card>(sqlite: database.url, table: "cards")
        for predicate: RecordPredicate<Card> in [\.stars == 3, \.text == "apple", \.due == nil] {
            let details = try await plan(predicate, in: database)
            #expect(details.contains { $0.contains("USING INDEX cards_q2_") }, "\(details)")
            #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(details)")
        }
        let range = try await plan(\.stars >= 3, in: database)
        #expect(range.contains { $0.contains("USING INDEX cards_q2_stars") }, "\(range)")
    }

    @Test("equality results come in the order every backend uses (ties by id), inserted out of order")
    func equalityInIDOrder() async throws {
        let database = try TemporaryDatabase()
        let sqlite = try RecordStore<Card>(sqlite: database.url, table: "cards")
        let memory = RecordStore<Card>.inMemory(name: "cards")
        let ids = [17, 3, 250, 42, 9, 1_000, 5, -4]
        for store in [sqlite, memory] {
            try await store.write { batch in
                for id in ids { batch.insert(Card(id: id, text: "same", stars: id % 2 == 0 ? 0 : 1)) }
            }
        }
        for predicate: RecordPredicate<Card> in [\.text == "same", \.stars == 1, \.due == nil] {
            let expected = try await memory.fetch(where: predicate).map(\.id)
            #expect(!expected.isEmpty)
            #expect(try await sqlite.fetch(where: predicate).map(\.id) == expected)
        }
    }

    @Test("a database with the older field-only indexes gets the (field, id) ones and loses the old")
    func migratesOldIndexes() async throws {
        let database = try TemporaryDatabase()
        let store = try RecordStore<Card>(sqlite: database.url, table: "cards")
        try await store.insert(Card(id: 2, text: "kept", stars: 4))
        let queue = try DatabaseQueue(path: database.url.path)
        // Put the database back as the previous release left it.
        try await queue.write { db in
            for field in ["text", "stars", "due", "done"] {
                try db.execute(sql: "DROP INDEX \"cards_q2_\(field)\"")
                try db.execute(sql: "CREATE INDEX \"cards_q_\(field)\" ON \"cards\" (\"q_\(field)\")")
            }
        }
        let reopened = try RecordStore<Card>(sqlite: database.url, table: "cards")
        let indexes = try await queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'cards'")
        }
        #expect(
            Set(indexes.filter { $0.hasPrefix("cards_q") }) == [
                "cards_q2_text", "cards_q2_stars", "cards_q2_due", "cards_q2_done",
            ])
        #expect(try await reopened.fetch(where: \.stars == 4).map(\.id) == [2])
    }
}
