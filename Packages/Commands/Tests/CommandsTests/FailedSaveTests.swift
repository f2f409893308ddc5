import Commands
import Errors
import Foundation
import Testing
import _KitSupport

/// What a test compares before and after a failed save.
struct RunnerSnapshot: Equatable {
    var model: Counter
    var canUndo: Bool
    var canRedo: Bool
    var undoName: String?
    var redoName: String?
    var journal: [String]

    init(_ runner: CommandRunner<Counter>) {
        model = runner.store.model
        canUndo = runner.canUndo
        canRedo = runner.canRedo
        undoName = runner.undoName
        redoName = runner.redoName
        journal = runner.journal.map { "\($0.name) \($0.outcome.appliedChanges)" }
    }
}

@Suite("A failed save rolls the change back")
struct FailedSaveTests {
    /// A runner over a real file with one saved change, one undone change (so redo has
    /// something), and an observer counting what it hears.
    struct Setup {
        let file: SavedFile<Counter>
        let store = ModelStore(Counter())
        let runner: CommandRunner<Counter>
        let heard = Locked(0)
        let observation: ChangeObservation

        init() async throws {
            file = try SavedFile()
            runner = CommandRunner(store: store, journalLimit: 100, save: file.step)
            try runner.execute(Add(amount: 1))
            try runner.execute(Add(amount: 2))
            try await runner.undo()
            observation = store.observe { [heard] _ in heard.withLock { $0 += 1 } }
        }
    }

    /// Checks that `attempt` fails with `saveFailed` naming `command` and the cause, and that
    /// model, history, journal, file and observers are exactly as before.
    func expectRollback(
        _ setup: Setup, command: String, sourceLocation: Testing.SourceLocation = #_sourceLocation,
        _ attempt: () async throws -> Void
    ) async throws {
        defer { setup.file.remove() }
        let before = RunnerSnapshot(setup.runner)
        try setup.file.blockWithFolder()
        do {
            try await attempt()
            Issue.record("The save should have failed.", sourceLocation: sourceLocation)
        } catch let error as CommandError {
            guard case .saveFailed(let name, let underlying) = error else {
                Issue.record("Expected saveFailed, got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(name == command, sourceLocation: sourceLocation)
            #expect(error.message.contains(underlying.userMessage), sourceLocation: sourceLocation)
            #expect(error.message.hasPrefix("\(command) was not applied"), sourceLocation: sourceLocation)
        }
        #expect(RunnerSnapshot(setup.runner) == before, sourceLocation: sourceLocation)
        #expect(setup.heard.withLock { $0 } == 0, sourceLocation: sourceLocation)
        // Once the disk is back, the next change saves the model without the rolled-back one.
        try setup.file.unblock()
        try setup.runner.execute(Add(amount: 10))
        #expect(try setup.file.load() == Counter(value: 11), sourceLocation: sourceLocation)
        #expect(setup.heard.withLock { $0 } == 1, sourceLocation: sourceLocation)
    }

    @Test("execute of a sync command")
    func syncExecute() async throws {
        let setup = try await Setup()
        try await expectRollback(setup, command: "Add") { try setup.runner.execute(Add(amount: 5)) }
    }

    @Test("await run of a sync command")
    func syncRun() async throws {
        let setup = try await Setup()
        try await expectRollback(setup, command: "Add") { try await setup.runner.run(Add(amount: 5)) }
    }

    @Test("an async command")
    func asyncCommand() async throws {
        let setup = try await Setup()
        try await expectRollback(setup, command: "SlowAppend") {
            try await setup.runner.run(SlowAppend(text: "lost"))
        }
    }

    @Test("a batch")
    func batch() async throws {
        let setup = try await Setup()
        try await expectRollback(setup, command: "CommandBatch<Counter>") {
            try setup.runner.execute(CommandBatch([Add(amount: 5), Add(amount: 6)]))
        }
    }

    @Test("undo")
    func undo() async throws {
        let setup = try await Setup()
        try await expectRollback(setup, command: "undo") { try await setup.runner.undo() }
    }

    @Test("redo")
    func redo() async throws {
        let setup = try await Setup()
        try await expectRollback(setup, command: "redo") { try await setup.runner.redo() }
    }

    @Test("replay")
    func replay() async throws {
        let setup = try await Setup()
        var registry = CommandRegistry<Counter>()
        registry.register(Add.self)
        let entries = setup.runner.journal.filter { $0.name == "Add" }
        try await expectRollback(setup, command: "replay") {
            try await setup.runner.replay(entries, using: registry)
        }
    }
}
