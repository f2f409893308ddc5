import Commands
import Errors
import Testing
import _KitSupport

@Suite("Failed commands change nothing")
struct AllOrNothingTests {
    @Test("failed sync, async and batch commands leave model, undo history and journal's applied entries as before")
    func failuresLeaveHistoryUntouched() async throws {
        let store = ModelStore(Counter())
        let saves = Locked(0)
        let runner = CommandRunner(
            store: store, journalLimit: 1_000, save: .sync { _ in saves.withLock { $0 += 1 } })
        try runner.execute(Add(amount: 1))
        let before = store.model
        #expect(throws: MessageError("Nothing to append.")) { try runner.execute(Append(text: "")) }
        await #expect(throws: MessageError("StageThenFail failed after staging.")) {
            try await runner.run(StageThenFail())
        }
        #expect(throws: MessageError("Cannot add -1.")) {
            try runner.execute(CommandBatch([Add(amount: 5), Add(amount: -1)]))
        }
        #expect(store.model == before)
        #expect(runner.undoName == "Add")
        #expect(!runner.canRedo)
        #expect(saves.withLock { $0 } == 1)
        let outcomes = runner.journal.map(\.outcome.appliedChanges)
        #expect(outcomes == [true, false, false, false])
        try await runner.undo()
        #expect(store.model == Counter())
        await #expect(throws: CommandError.nothingToUndo) { try await runner.undo() }
    }
}
