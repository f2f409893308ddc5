import Foundation
import Storage
import Testing

@Suite("Change observation on the file and in-memory backends")
struct RecordChangesTests {
    @Test(
        "yields the result set now and after each write that changes it, from any store on the file",
        arguments: RecordBackendKind.allCases)
    func yieldsResultSets(_ kind: RecordBackendKind) async throws {
        let temporary = try TemporaryFolder()
        let writer: RecordStore<Card> = try kind.store("cards.json", in: temporary)
        // In memory there is no file to share: the writer and the watcher are the same store.
        let watcher: RecordStore<Card> = kind == .file ? try kind.store("cards.json", in: temporary) : writer
        try await writer.insert(Card(id: 1, text: "a", stars: 5))
        var results = try watcher.changes(matching: RecordQuery(where: \.stars >= 4, sortedBy: [.ascending(\.text)]))
            .makeAsyncIterator()
        #expect(try await results.next()?.map(\.id) == [1])
        try await writer.insert(Card(id: 2, text: "0", stars: 4))
        #expect(try await results.next()?.map(\.id) == [2, 1])
        // A write outside the result does not repeat the same result set.
        try await writer.insert(Card(id: 3, text: "low", stars: 1))
        try await writer.delete(id: 1)
        #expect(try await results.next()?.map(\.id) == [2])
    }

    @Test("stops observing when the consumer stops iterating", arguments: RecordBackendKind.allCases)
    func ends(_ kind: RecordBackendKind) async throws {
        let temporary = try TemporaryFolder()
        let cards: RecordStore<Card> = try kind.store("cards.json", in: temporary)
        let consumer = Task {
            var seen = 0
            for try await _ in try cards.changes(matching: .all) { seen += 1 }
            return seen
        }
        try await Task.sleep(for: .milliseconds(50))
        consumer.cancel()
        let seen = try await consumer.value
        #expect(seen <= 1)
        try await cards.insert(Card(id: 1, text: "after", stars: 1))
    }
}
