import Commands
import Errors
import Testing

@Suite("Store and runner are released")
struct ReleaseTests {
    @Test("store and runner are released after use, observers and async commands included")
    func releasedAfterUse() async throws {
        weak var weakStore: ModelStore<Counter>?
        weak var weakRunner: CommandRunner<Counter>?
        do {
            let store = ModelStore(Counter())
            let runner = CommandRunner(store: store, journalLimit: 1_000, save: .sync { _ in })
            weakStore = store
            weakRunner = runner
            let observation = store.observe { change in
                if change.name == "SlowAppend" { runner.run(Add(amount: 1)) { _ in } }
            }
            let changes = Task {
                for await _ in store.changes {}
            }
            try runner.execute(Add(amount: 1))
            try await runner.run(SlowAppend(text: "a"), id: "a", cancelsPrevious: true)
            try await runner.undo()
            try await runner.redo()
            let started = Gate()
            let forever = Task { try await runner.run(Forever(started: started), id: "f") }
            await started.wait()
            runner.cancel(id: "f")
            _ = await forever.result
            await eventually("nothing is running") { runner.runningIDs.isEmpty }
            changes.cancel()
            await changes.value
            observation.cancel()
            _ = runner.journal
        }
        await eventually("the store and runner are released") { weakStore == nil && weakRunner == nil }
        #expect(weakStore == nil)
        #expect(weakRunner == nil)
    }
}
