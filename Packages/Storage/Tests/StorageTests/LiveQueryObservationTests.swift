import Foundation
import Observation
import Storage
import Testing

@Suite("Observing a live query")
struct LiveQueryObservationTests {
    /// Polls until `condition` holds, at most 2 000 times 5 ms apart (a bound on polls, not on
    /// wall time, so a busy machine slows the test instead of failing it).
    func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<2_000 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("the condition never held")
    }

    @Test("records follow the query; a reader is told when the result changes, not for writes outside it")
    func signalsOnlyForTheResult() async throws {
        let temporary = try TemporaryFolder()
        let cards = try RecordStore<Card>(file: "cards.json", in: temporary.store(durability: .none))
        try await cards.insert(Card(id: 1, text: "a", stars: 5))
        let urgent = try LiveQuery(cards, matching: RecordQuery(where: \.stars >= 4, sortedBy: [.ascending(\.text)]))
        try await eventually { urgent.isLoaded }
        #expect(urgent.records.map(\.id) == [1])

        let reader = ObservationReader { _ = urgent.records }
        try await cards.insert(Card(id: 2, text: "0", stars: 4))
        try await eventually { urgent.records.count == 2 }
        #expect(urgent.records.map(\.id) == [2, 1])
        #expect(reader.count == 1)

        // Outside the result: no new result set, so no signal. A later write inside it is seen,
        // which also proves the one outside was processed first.
        try await cards.insert(Card(id: 3, text: "low", stars: 1))
        try await cards.delete(id: 2)
        try await eventually { urgent.records.map(\.id) == [1] }
        #expect(reader.count == 2)
        #expect(urgent.failure == nil)
    }

    @Test("a failed write signals nothing and leaves the records as they were")
    func failedWrite() async throws {
        let temporary = try TemporaryFolder()
        let cards = try RecordStore<Card>(file: "cards.json", in: temporary.store(durability: .none))
        try await cards.insert(Card(id: 1, text: "a", stars: 5))
        let all = try LiveQuery(cards, matching: .all)
        try await eventually { all.isLoaded }
        let reader = ObservationReader { _ = all.records }
        await #expect(throws: StorageError.self) { try await cards.insert(Card(id: 1, text: "again", stars: 1)) }
        try await cards.insert(Card(id: 2, text: "b", stars: 1))
        try await eventually { all.records.count == 2 }
        #expect(reader.count == 1)
        #expect(all.records.map(\.text) == ["a", "b"])
    }

    @Test("a key path that is not queryable is refused at once")
    func unqueryable() async throws {
        let temporary = try TemporaryFolder()
        let cards = try RecordStore<Card>(file: "cards.json", in: temporary.store(durability: .none))
        #expect(throws: RecordStoreError.self) { _ = try LiveQuery(cards, matching: \.note == "x") }
    }

    @Test("after cancel, writes no longer reach the records")
    func cancelStops() async throws {
        let temporary = try TemporaryFolder()
        let cards = try RecordStore<Card>(file: "cards.json", in: temporary.store(durability: .none))
        let all = try LiveQuery(cards, matching: .all)
        try await eventually { all.isLoaded }
        all.cancel()
        try await Task.sleep(for: .milliseconds(20))
        try await cards.insert(Card(id: 1, text: "late", stars: 1))
        // A second query on the same file proves the write was announced.
        let other = try LiveQuery(cards, matching: .all)
        try await eventually { other.records.count == 1 }
        #expect(all.records.isEmpty)
    }
}
