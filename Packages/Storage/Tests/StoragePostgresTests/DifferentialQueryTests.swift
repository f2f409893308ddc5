import Foundation
import PropertyBased
import Storage
import StoragePostgres
import StoragePostgresTesting
import StorageSQLite
import Testing

/// A record with every kind of queryable field, optional ones included.
struct Item: Codable, Identifiable, Equatable, Sendable, QueryableRecord {
    var id: Int
    var name: String
    var score: Int
    var weight: Double?
    var flag: Bool
    var label: String?

    static let queryableFields: [QueryField<Item>] = [
        QueryField(\.name, "name"), QueryField(\.score, "score"), QueryField(\.weight, "weight"),
        QueryField(\.flag, "flag"), QueryField(\.label, "label"),
    ]

    /// Few distinct values, so comparisons hit, ties happen and text order is tested where it is
    /// subtle: case, a precomposed and a decomposed é, a prefix, the empty string.
    static let texts = ["", "a", "b", "A", "Z", "ab", "ba", "\u{E9}", "e\u{301}", "e", "日本"]
    static let weights: [Double?] = [nil, -1.5, 0, 2.25, 1e300, -1e-300, 7]
}

/// Turns a list of numbers into a query, so the property library's shrinking of the list
/// shrinks the query too. Numbers past the end read as 0, which always picks a leaf.
struct QueryProgram {
    let codes: [Int]
    var position = 0

    init(_ codes: [Int]) { self.codes = codes }

    mutating func next(_ bound: Int) -> Int {
        defer { position += 1 }
        return position < codes.count ? codes[position] % bound : 0
    }

    mutating func text() -> String { Item.texts[next(Item.texts.count)] }

    mutating func comparison<Value: QueryableValue>(
        _ keyPath: KeyPath<Item, Value>, _ value: Value
    ) -> RecordPredicate<Item> {
        switch next(6) {
        case 0: keyPath == value
        case 1: keyPath != value
        case 2: keyPath < value
        case 3: keyPath <= value
        case 4: keyPath > value
        default: keyPath >= value
        }
    }

    mutating func predicate(depth: Int = 0) -> RecordPredicate<Item> {
        switch next(depth >= 3 ? 9 : 12) {
        case 0: return comparison(\.name, text())
        case 1: return comparison(\.score, next(9) - 4)
        case 2: return comparison(\.weight, Item.weights[next(Item.weights.count)])
        case 3: return comparison(\.flag, next(2) == 1)
        case 4: return comparison(\.label, next(4) == 0 ? nil : text())
        case 5: return .contains(\.name, text())
        case 6: return .contains(\.label, text())
        case 7: return .in(\.score, (0..<next(4)).map { _ in next(9) - 4 })
        case 8: return next(2) == 0 ? .isNil(\.label) : .in(\.weight, [nil, Item.weights[next(Item.weights.count)]])
        case 9: return predicate(depth: depth + 1) && predicate(depth: depth + 1)
        case 10: return predicate(depth: depth + 1) || predicate(depth: depth + 1)
        default: return !predicate(depth: depth + 1)
        }
    }

    mutating func sort() -> [RecordSort<Item>] {
        (0..<next(4)).map { _ in
            let ascending = next(2) == 0
            switch next(5) {
            case 0: return ascending ? .ascending(\.name) : .descending(\.name)
            case 1: return ascending ? .ascending(\.score) : .descending(\.score)
            case 2: return ascending ? .ascending(\.weight) : .descending(\.weight)
            case 3: return ascending ? .ascending(\.flag) : .descending(\.flag)
            default: return ascending ? .ascending(\.label) : .descending(\.label)
            }
        }
    }

    mutating func query() -> RecordQuery<Item> {
        let predicate = predicate()
        let sort = sort()
        let limit = next(3) == 0 ? nil : next(12)
        return RecordQuery(where: predicate, sortedBy: sort, limit: limit, offset: next(3) == 0 ? next(6) : 0)
    }
}

@Suite("The same queries give the same answers on every backend", .timeLimit(.minutes(5)))
struct DifferentialQueryTests {
    static let records = zip(
        Gen.int(in: 0...(Item.texts.count - 1)), Gen.int(in: -4...4), Gen.int(in: 0...(Item.weights.count - 1)),
        Gen.bool,
        Gen.int(in: 0...Item.texts.count)
    ).array(of: 0...30)
    static let programs = Gen.int(in: 0...1_000_000).array(of: 0...24).array(of: 1...6)

    static func items(_ rows: [(Int, Int, Int, Bool, Int)]) -> [Item] {
        rows.enumerated().map { index, row in
            Item(
                id: index, name: Item.texts[row.0], score: row.1, weight: Item.weights[row.2], flag: row.3,
                label: row.4 == Item.texts.count ? nil : Item.texts[row.4])
        }
    }

    /// Replaces every store's records with `items`, then checks each query on each store
    /// against the file backend's answer (the in-memory reference).
    static func check(_ stores: [(String, RecordStore<Item>)], items: [Item], programs: [[Int]]) async throws {
        for (_, store) in stores {
            let old = try await store.fetchAll()
            try await store.write { batch in
                for item in old { batch.delete(id: item.id) }
                for item in items { batch.insert(item) }
            }
        }
        let reference = stores[0].1
        for codes in programs {
            var program = QueryProgram(codes)
            let query = program.query()
            let expected = try await reference.fetch(query)
            let expectedCount = try await reference.count(where: query.predicate)
            for (name, store) in stores.dropFirst() {
                let actual = try await store.fetch(query)
                #expect(actual.map(\.id) == expected.map(\.id), "\(name) differs for program \(codes)")
                #expect(actual == expected)
                #expect(
                    try await store.count(where: query.predicate) == expectedCount, "\(name) count, program \(codes)")
            }
        }
    }

    @Test("files, SQLite and PostgreSQL agree on random records and random queries")
    func agree() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("Differential-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try RecordStore<Item>(file: "items.json", in: FileStore(directory: folder, durability: .none))
        let sqlite = try RecordStore<Item>(sqlite: folder.appendingPathComponent("items.sqlite"), table: "items")
        var stores = [("file", file), ("SQLite", sqlite)]
        var server: PostgresTestServer?
        var postgres: PostgresRecordBackend<Item>?
        if let reason = PostgresTestServer.unavailableReason {
            // CI must compare all three: there a missing PostgreSQL fails the test.
            guard ProcessInfo.processInfo.environment[PostgresTestServer.requiredVariable] == nil else {
                throw PostgresTestServerError.unavailable(reason: reason)
            }
            print("Comparing files and SQLite only: \(reason)")
        } else {
            let started = try await PostgresTestServer.start()
            server = started
            do {
                let backend = try await PostgresRecordBackend<Item>(url: started.url, table: "items")
                postgres = backend
                stores.append(("PostgreSQL", RecordStore(backend: backend)))
            } catch {
                await started.stop()
                throw error
            }
        }
        let all = stores
        await propertyCheck(count: 60, input: Self.records, Self.programs) { rows, programs in
            try await Self.check(all, items: Self.items(rows), programs: programs)
        }
        try await postgres?.shutdown()
        await server?.stop()
    }
}
