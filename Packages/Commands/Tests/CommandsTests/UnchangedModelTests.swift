import Commands
import Testing
import _KitSupport

/// Sets the value to what it already is: a command that changes nothing.
struct SetValue: Command {
    var value: Int
    func execute(_ model: inout Counter) throws { model.value = value }
}

/// Changes the model and changes it back: the net change is none.
struct AddAndRemove: AsyncCommand {
    func execute(_ context: CommandContext<Counter>) async throws {
        try await context.mutate { $0.value += 1 }
        try await context.mutate { $0.value -= 1 }
    }
}

/// A model that is not `Equatable`.
struct Opaque: Sendable {
    var value = 0
}

struct Touch: Command {
    func execute(_ model: inout Opaque) throws { model.value += 0 }
}

@Suite("Commands that change nothing")
struct UnchangedModelTests {
    @Test("with an Equatable model, a sync command that changes nothing makes no undo step and no announcement")
    func syncNoOp() async throws {
        let store = ModelStore(Counter(value: 3))
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let seen = Locked(0)
        let observation = store.observe { _ in seen.withLock { $0 += 1 } }
        try runner.execute(Add(amount: 1))
        try runner.execute(SetValue(value: 4))
        #expect(seen.withLock { $0 } == 1)
        #expect(runner.journal.map(\.name) == ["Add", "SetValue"])
        #expect(runner.journal.map(\.outcome) == [.succeeded, .succeeded])
        try await runner.undo()
        #expect(store.model.value == 3)
        #expect(!runner.canUndo)
        _ = observation
    }

    @Test("a no-op command does not clear the redo history")
    func noOpKeepsRedo() async throws {
        let runner = CommandRunner(store: ModelStore(Counter()), journalLimit: 1_000)
        try runner.execute(Add(amount: 2))
        try await runner.undo()
        try runner.execute(SetValue(value: 0))
        #expect(runner.canRedo)
    }

    @Test("with an Equatable model, an async command whose staged changes cancel out makes no change")
    func asyncNoOp() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let seen = Locked(0)
        let observation = store.observe { _ in seen.withLock { $0 += 1 } }
        try await runner.run(AddAndRemove())
        #expect(seen.withLock { $0 } == 0)
        #expect(!runner.canUndo)
        _ = observation
    }

    @Test("a command that changes nothing is not saved")
    func noOpIsNotSaved() throws {
        let saves = Locked(0)
        let runner = CommandRunner(
            store: ModelStore(Counter()), journalLimit: 1_000, save: .sync { _ in saves.withLock { $0 += 1 } })
        try runner.execute(SetValue(value: 0))
        #expect(saves.withLock { $0 } == 0)
        #expect(!runner.canUndo)
        #expect(runner.journal.map(\.outcome) == [.succeeded])
    }

    @Test("with a model that is not Equatable, every successful command is a change, even one that changes nothing")
    func notEquatable() async throws {
        let store = ModelStore(Opaque())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let seen = Locked(0)
        let observation = store.observe { _ in seen.withLock { $0 += 1 } }
        try runner.execute(Touch())
        #expect(seen.withLock { $0 } == 1)
        #expect(runner.undoName == "Touch")
        _ = observation
    }
}
