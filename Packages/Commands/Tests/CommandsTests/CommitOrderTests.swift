import Commands
import Errors
import Testing
import _KitSupport

@Suite("Changes in commit order")
struct CommitOrderTests {
    @Test("the journal lists changes in the order they were applied, also for async commands and undo")
    func journalInCommitOrder() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        // Each async change or undo queues a sync command from an observer; it is applied right after.
        let observation = store.observe { change in
            if change.name != "Add" { runner.run(Add(amount: 1)) { _ in } }
        }
        try await runner.run(SlowAppend(text: "a"))
        try await runner.undo()
        await eventually("both queued commands ran") { runner.journal.count == 4 }
        #expect(runner.journal.map(\.name) == ["SlowAppend", "Add", "undo", "Add"])
        observation.cancel()
    }

    @Test("under concurrency, observers see every change once, in order, and commands they queue all run")
    func observersUnderConcurrency() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, undoLimit: 10, journalLimit: 10)
        let seen = Locked<[Counter]>([])
        let broken = Locked(0)
        let observation = store.observe { change in
            seen.withLock { models in
                if let last = models.last, last != change.old { broken.withLock { $0 += 1 } }
                models.append(change.new)
            }
            if change.name == "Add" { runner.run(Append(text: "x")) { _ in } }
        }
        let tasks = 4
        let perTask = 250
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<tasks {
                group.addTask {
                    for step in 0..<perTask {
                        if step.isMultiple(of: 2) {
                            _ = try? runner.execute(Add(amount: 1))
                        } else if index.isMultiple(of: 2) {
                            _ = try? await runner.run(Add(amount: 1))
                        } else {
                            _ = try? await runner.run(SlowAppend(text: "s"))
                        }
                    }
                }
            }
        }
        let adds = tasks * perTask - (tasks / 2) * (perTask / 2)
        let slow = (tasks / 2) * (perTask / 2)
        await eventually("every queued command ran") { store.model.log.count == adds + slow }
        #expect(broken.withLock { $0 } == 0)
        #expect(seen.withLock { $0 }.count == adds * 2 + slow)
        #expect(seen.withLock { $0 }.last == store.model)
        #expect(store.model.value == adds * 1001 + slow)
        observation.cancel()
    }
}
