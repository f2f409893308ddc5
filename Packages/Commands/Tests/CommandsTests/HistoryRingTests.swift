import Commands
import Foundation
import Testing

@Suite("Bounded history and journal")
struct HistoryRingTests {
    @Test("after the history wrapped, undo, new commands and redo keep the newest steps in order")
    func undoAfterWrap() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, undoLimit: 3)
        for amount in 1...5 { try runner.execute(Add(amount: amount)) }  // 1, 3, 6, 10, 15
        try await runner.undo()
        try await runner.undo()
        #expect(store.model.value == 6)
        try await runner.redo()
        #expect(store.model.value == 10)
        try runner.execute(Add(amount: 100))  // 110; the redo step is dropped
        #expect(!runner.canRedo)
        var values: [Int] = []
        while runner.canUndo {
            try await runner.undo()
            values.append(store.model.value)
        }
        #expect(values == [10, 6, 3])
    }

    @Test("the journal keeps its newest entries in order across many wraps, and can be cleared")
    func journalWraps() throws {
        let runner = CommandRunner(store: ModelStore(Counter()), journalLimit: 20)
        for amount in 1...1_000 { try runner.execute(Add(amount: amount)) }
        let amounts = try runner.journal.map { try JSONDecoder().decode(Add.self, from: try #require($0.input)).amount }
        #expect(amounts == Array(981...1_000))
        runner.clearJournal()
        #expect(runner.journal.isEmpty)
        try runner.execute(Add(amount: 1))
        #expect(runner.journal.count == 1)
    }
}
