import Foundation
import Storage
import Testing

struct Card: Codable, Identifiable, Equatable, Sendable, QueryableRecord {
    var id: Int
    var text: String
    var stars: Int
    var due: Double? = nil
    var done = false
    var note = ""

    static let queryableFields: [QueryField<Card>] = [
        QueryField(\.text, "text"), QueryField(\.stars, "stars"), QueryField(\.due, "due"), QueryField(\.done, "done"),
    ]
}

@Suite("Key-path queries on the file and in-memory backends")
struct RecordQueryTests {
    func cards(_ temporary: TemporaryFolder, _ kind: RecordBackendKind) async throws -> RecordStore<Card> {
        let cards: RecordStore<Card> = try kind.store("cards.json", in: temporary)
        try await cards.write { batch in
            batch.insert(Card(id: 1, text: "apple", stars: 3, due: 5))
            batch.insert(Card(id: 2, text: "Banana", stars: 5))
            batch.insert(Card(id: 3, text: "cherry", stars: 3, due: 1, done: true))
            batch.insert(Card(id: 10, text: "", stars: 1, due: 9))
        }
        return cards
    }

    @Test("filters, sorts descending and limits as the issue's snippet does", arguments: RecordBackendKind.allCases)
    func snippet(_ kind: RecordBackendKind) async throws {
        let temporary = try TemporaryFolder()
        let cards = try await cards(temporary, kind)
        let top = try await cards.fetch(where: \.stars >= 3, sortedBy: \.stars, ascending: false, limit: 10)
        #expect(top.map(\.id) == [2, 1, 3])
        #expect(try await cards.count(where: \.stars > 4 && \.text != "") == 1)
        #expect(try await cards.count(where: \.stars >= 3 || \.text == "") == 4)
        #expect(try await cards.count(where: !(\.stars >= 3)) == 1)
    }

    @Test(
        "nil never satisfies a comparison, != included, and sorts before every value",
        arguments: RecordBackendKind.allCases)
    func nilSemantics(_ kind: RecordBackendKind) async throws {
        let temporary = try TemporaryFolder()
        let cards = try await cards(temporary, kind)
        #expect(try await cards.fetch(where: \.due < 6).map(\.id) == [1, 3])
        #expect(try await cards.fetch(where: \.due != 5).map(\.id) == [10, 3])
        #expect(try await cards.fetch(where: !(\.due < 6)).map(\.id) == [10, 2])
        #expect(try await cards.fetch(where: \.due == nil).map(\.id) == [2])
        #expect(try await cards.fetch(where: .isNil(\.due)).map(\.id) == [2])
        #expect(try await cards.fetch(where: \.due != nil).map(\.id) == [1, 10, 3])
        #expect(try await cards.fetch(where: .in(\.due, [nil, 1])).map(\.id) == [2, 3])
        #expect(try await cards.fetch(where: .all, sortedBy: \.due).map(\.id) == [2, 3, 1, 10])
        #expect(try await cards.fetch(where: .all, sortedBy: \.due, ascending: false).map(\.id) == [10, 1, 3, 2])
    }

    @Test(
        "compares text by Unicode scalars, not by canonical equivalence or locale",
        arguments: RecordBackendKind.allCases)
    func binaryText(_ kind: RecordBackendKind) async throws {
        let temporary = try TemporaryFolder()
        let cards: RecordStore<Card> = try kind.store("cards.json", in: temporary)
        try await cards.insert(Card(id: 1, text: "\u{E9}", stars: 0))  // é precomposed
        try await cards.insert(Card(id: 2, text: "e\u{301}", stars: 0))  // e + combining accent
        try await cards.insert(Card(id: 3, text: "Z", stars: 0))
        try await cards.insert(Card(id: 4, text: "a", stars: 0))
        #expect(try await cards.fetch(where: \.text == "\u{E9}").map(\.id) == [1])
        #expect(try await cards.fetch(where: .all, sortedBy: \.text).map(\.id) == [3, 4, 2, 1])
        #expect(try await cards.fetch(where: .contains(\.text, "\u{301}")).map(\.id) == [2])
        #expect(try await cards.fetch(where: .contains(\.text, "")).map(\.id) == [1, 2, 3, 4])
        #expect(try await cards.fetch(where: \.text < "a").map(\.id) == [3])
    }

    @Test(
        "sorts by several fields, breaks ties by id text, and pages with offset", arguments: RecordBackendKind.allCases)
    func sortingAndPaging(_ kind: RecordBackendKind) async throws {
        let temporary = try TemporaryFolder()
        let cards = try await cards(temporary, kind)
        let byStarsThenText = try await cards.fetch(where: .all, sortedBy: [.descending(\.stars), .ascending(\.text)])
        #expect(byStarsThenText.map(\.id) == [2, 1, 3, 10])
        // Ties break by the id's canonical text: "10" < "3".
        #expect(try await cards.fetch(where: .all).map(\.id) == [1, 10, 2, 3])
        #expect(
            try await cards.fetch(where: .all, sortedBy: [.ascending(\.done)], limit: 2, offset: 1).map(\.id) == [
                10, 2,
            ])
        #expect(try await cards.fetch(where: .all, limit: -3).isEmpty)
        #expect(try await cards.fetch(where: .all, offset: 99).isEmpty)
        #expect(try await cards.fetch(where: .in(\.stars, [])).isEmpty)
        #expect(try await cards.fetch(where: .in(\.stars, [5, 1])).map(\.id) == [10, 2])
        #expect(try await cards.fetch(where: \.done == true).map(\.id) == [3])
    }

    @Test(
        "a predicate on a key path not declared queryable is a typed error naming it",
        arguments: RecordBackendKind.allCases)
    func unqueryable(_ kind: RecordBackendKind) async throws {
        let temporary = try TemporaryFolder()
        let cards = try await cards(temporary, kind)
        let error = await #expect(throws: RecordStoreError.self) { try await cards.fetch(where: \.note == "x") }
        guard case .unqueryableField(let keyPath, let record) = error else {
            Issue.record("expected unqueryableField, got \(String(describing: error))")
            return
        }
        #expect(keyPath.contains("note"))
        #expect(record == "Card")
        await #expect(throws: RecordStoreError.self) { try await cards.fetch(where: .all, sortedBy: \.note) }
        #expect(throws: RecordStoreError.self) { _ = try cards.changes(matching: \.note == "") }
    }

    @Test("rejects a field name that is not letters, digits and _")
    func invalidFieldName() throws {
        struct Spaced: QueryableRecord {
            var id: Int
            static let queryableFields: [QueryField<Spaced>] = [QueryField(\.id, "two words")]
        }
        let error = #expect(throws: RecordStoreError.self) { try RecordQuery<Spaced>().plan() }
        guard case .invalidField(let name, let record, _) = error else {
            Issue.record("expected invalidField, got \(String(describing: error))")
            return
        }
        #expect(name == "two words")
        #expect(record == "Spaced")
    }

    @Test("rejects two fields with one name")
    func duplicateFieldName() throws {
        struct Twice: QueryableRecord {
            var id: Int
            var other: Int
            static let queryableFields: [QueryField<Twice>] = [QueryField(\.id, "n"), QueryField(\.other, "N")]
        }
        #expect(throws: RecordStoreError.self) { try RecordQuery<Twice>().plan() }
    }
}
