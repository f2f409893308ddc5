import Commands
import Errors
import Testing
import _KitSupport

@Suite("Undo and redo")
struct UndoTests {
    @Test("undo restores the model before the last command; redo brings it back")
    func undoRedo() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        try runner.execute(Add(amount: 1))
        try runner.execute(Add(amount: 2))
        #expect(runner.undoName == "Add")
        try await runner.undo()
        #expect(store.model.value == 1)
        try await runner.undo()
        #expect(store.model.value == 0)
        #expect(!runner.canUndo && runner.canRedo)
        try await runner.redo()
        try await runner.redo()
        #expect(store.model.value == 3)
    }

    @Test("undo with an empty history throws nothingToUndo and leaves the model untouched")
    func emptyHistory() async throws {
        let store = ModelStore(Counter(value: 4))
        let runner = CommandRunner(store: store)
        await #expect(throws: CommandError.nothingToUndo) { try await runner.undo() }
        await #expect(throws: CommandError.nothingToRedo) { try await runner.redo() }
        #expect(store.model.value == 4)
        #expect(CommandError.nothingToUndo.message == "There is nothing to undo.")
    }

    @Test("a new command clears the redo history")
    func newCommandClearsRedo() async throws {
        let runner = CommandRunner(store: ModelStore(Counter()))
        try runner.execute(Add(amount: 1))
        try await runner.undo()
        try runner.execute(Add(amount: 5))
        #expect(!runner.canRedo)
    }

    @Test("a group undoes as one step, named after the group")
    func grouping() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        try runner.execute(Add(amount: 1))
        try runner.withUndoGroup("Add three") {
            try runner.execute(Add(amount: 10))
            try runner.execute(Add(amount: 20))
            try runner.execute(Add(amount: 30))
        }
        #expect(runner.undoName == "Add three")
        try await runner.undo()
        #expect(store.model.value == 1)
        try await runner.redo()
        #expect(store.model.value == 61)
    }

    @Test("consecutive commands with the same coalescing key undo as one step")
    func coalescing() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        for amount in 1...5 {
            try runner.execute(Add(amount: amount, undoBehavior: .coalesce("typing")))
        }
        try runner.execute(Add(amount: 100))
        try runner.execute(Add(amount: 1, undoBehavior: .coalesce("typing")))
        try await runner.undo()
        #expect(store.model.value == 115)
        try await runner.undo()
        #expect(store.model.value == 15)
        try await runner.undo()
        #expect(store.model.value == 0)
    }

    @Test("skipped commands are not undo steps; clearHistory empties the history")
    func optOut() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        try runner.execute(Add(amount: 1, undoBehavior: .skip))
        #expect(!runner.canUndo)
        try runner.execute(Add(amount: 2))
        try runner.execute(Add(amount: 3, undoBehavior: .clearHistory))
        #expect(!runner.canUndo)
        await #expect(throws: CommandError.nothingToUndo) { try await runner.undo() }
        #expect(store.model.value == 6)
    }

    @Test("the history keeps at most undoLimit steps", arguments: [0, 1, 3])
    func depthLimit(limit: Int) async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, undoLimit: limit)
        for _ in 0..<5 { try runner.execute(Add(amount: 1)) }
        var undone = 0
        while runner.canUndo {
            try await runner.undo()
            undone += 1
        }
        #expect(undone == limit)
        #expect(store.model.value == 5 - limit)
    }

    @Test("undo and redo are announced to observers as changes")
    func announced() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        try runner.execute(Add(amount: 1))
        let kinds = Locked<[ModelChange<Counter>.Kind]>([])
        let observation = store.observe { change in kinds.withLock { $0.append(change.kind) } }
        try await runner.undo()
        try await runner.redo()
        #expect(kinds.withLock { $0 } == [.undo, .redo])
        _ = observation
    }
}
