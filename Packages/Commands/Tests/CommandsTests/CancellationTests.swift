import Commands
import Errors
import Testing
import _KitSupport

@Suite("Cancelling async commands")
struct CancellationTests {
    @Test("cancelling a command that ignores cancellation still ends run with cancelled, model untouched")
    func cancelStubbornCommand() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let started = Gate()
        let gate = Gate()
        let outcome = Locked<Swift.Result<Int, any Error>?>(nil)
        let task = Task {
            let result: Swift.Result<Int, any Error>
            do {
                result = .success(try await runner.run(Stubborn(started: started, gate: gate), id: "s"))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
        }
        await started.wait()
        #expect(runner.cancel(id: "s") == 1)
        await eventually("run returns after cancel(id:)") { outcome.withLock { $0 } != nil }
        let result = try #require(outcome.withLock { $0 })
        #expect(throws: CommandError.cancelled(command: "Stubborn")) { try result.get() }
        // Later commands are not held up, and the stubborn one never commits.
        try runner.execute(Add(amount: 2))
        gate.open()
        _ = await task.result
        await eventually("the stubborn command finished in the background") { runner.runningIDs.isEmpty }
        #expect(store.model == Counter(value: 2))
        #expect(runner.undoName == "Add")
    }

    @Test("the completion of a cancelled command that ignores cancellation is still called")
    func cancelStubbornCommandWithCompletion() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let started = Gate()
        let gate = Gate()
        let outcome = Locked<String?>(nil)
        runner.run(Stubborn(started: started, gate: gate), id: "s") { result in
            if case .failure(let error) = result { outcome.withLock { $0 = error.userMessage } }
        }
        await started.wait()
        runner.cancel(id: "s")
        await eventually("the completion is called after cancel(id:)") { outcome.withLock { $0 } != nil }
        #expect(outcome.withLock { $0 } == CommandError.cancelled(command: "Stubborn").message)
        gate.open()
        #expect(store.model == Counter())
    }

    @Test("cancel(id:) of an unknown id is a no-op")
    func cancelUnknownID() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        try runner.execute(Add(amount: 1))
        #expect(runner.cancel(id: "nobody") == 0)
        try await runner.run(SlowAppend(text: "after"), id: "nobody")
        #expect(store.model == Counter(value: 2, log: ["after"]))
    }
}
