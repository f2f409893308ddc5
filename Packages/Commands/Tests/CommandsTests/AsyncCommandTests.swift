import Commands
import Errors
import Testing
import _KitSupport

@Suite("Async commands")
struct AsyncCommandTests {
    @Test("slow parts run concurrently, but changes commit in submission order")
    func commitOrder() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let firstGate = Gate()
        let secondGate = Gate()
        let first = Task { try await runner.run(SlowAppend(text: "first", gate: firstGate), id: "first") }
        await eventually("the first command is submitted") { runner.runningIDs.contains("first") }
        let second = Task { try await runner.run(SlowAppend(text: "second", gate: secondGate)) }
        // The second command's slow part finishes first; it must still commit second.
        secondGate.open()
        await Task.yield()
        #expect(store.model.log.isEmpty)
        firstGate.open()
        #expect(try await first.value == "first")
        #expect(try await second.value == "second")
        #expect(store.model.log == ["first", "second"])
        #expect(store.model.value == 2)
    }

    @Test("an async command that fails after staging changes applies none of them")
    func allOrNothing() async throws {
        let store = ModelStore(Counter(value: 7))
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        await #expect(throws: MessageError("boom failed after staging.")) {
            try await runner.run(SlowAppend(text: "boom", failAfterMutating: true))
        }
        #expect(store.model == Counter(value: 7))
    }

    @Test("sync commands applied while an async command is in flight are kept when it commits")
    func rebaseKeepsOtherChanges() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let gate = Gate()
        let staged = Gate()
        struct StageThenWait: AsyncCommand {
            var staged: Gate
            var gate: Gate
            func execute(_ context: CommandContext<Counter>) async throws -> Int {
                let seen = try await context.mutate { model -> Int in
                    model.value += 1
                    return model.value
                }
                staged.open()
                await gate.wait()
                return seen
            }
        }
        let task = Task { try await runner.run(StageThenWait(staged: staged, gate: gate)) }
        await staged.wait()
        try runner.execute(Add(amount: 10))
        #expect(store.model.value == 10)
        gate.open()
        #expect(try await task.value == 1)
        #expect(store.model.value == 11)
    }

    @Test("a command that runs forever is cancelled by id and leaves the model untouched")
    func cancelByID() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let started = Gate()
        let task = Task { try await runner.run(Forever(started: started), id: "forever") }
        await started.wait()
        #expect(runner.runningIDs == ["forever"])
        #expect(runner.cancel(id: "forever") == 1)
        await #expect(throws: CommandError.self) { try await task.value }
        do {
            try await task.value
        } catch let error as CommandError {
            guard case .cancelled(let name) = error else {
                Issue.record("Expected cancelled, got \(error)")
                return
            }
            #expect(name == "Forever")
        }
        #expect(store.model == Counter())
        #expect(runner.runningIDs.isEmpty)
        #expect(runner.journal.last?.outcome == .cancelled)
    }

    @Test("cancelling the calling task cancels the command")
    func callerCancellation() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let started = Gate()
        let task = Task { try await runner.run(Forever(started: started)) }
        await started.wait()
        task.cancel()
        await #expect(throws: CommandError.self) { try await task.value }
        #expect(store.model == Counter())
    }

    @Test("cancelsPrevious cancels the earlier command with the same id (search as you type)")
    func cancelsPrevious() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let gate = Gate()
        let first = Task { try await runner.run(SlowAppend(text: "s", gate: gate), id: "search") }
        await eventually("the first search is running") { runner.runningIDs.contains("search") }
        let second = try await runner.run(SlowAppend(text: "sw"), id: "search", cancelsPrevious: true)
        #expect(second == "sw")
        #expect(store.model.log == ["sw"])
        // The first command ignores cancellation while it waits; once it finishes, it reports
        // the cancellation and its staged change is dropped.
        gate.open()
        await #expect(throws: CommandError.cancelled(command: "SlowAppend")) { try await first.value }
        #expect(store.model.log == ["sw"])
    }

    @Test("a failing child rolls back its own changes; the parent can carry on")
    func childRollback() async throws {
        struct Parent: AsyncCommand {
            func execute(_ context: CommandContext<Counter>) async throws {
                try await context.mutate { $0.log.append("parent") }
                do {
                    try await context.run(SlowAppend(text: "child", failAfterMutating: true))
                } catch {
                    try await context.mutate { $0.log.append("recovered") }
                }
                try await context.execute(Add(amount: 5))
            }
        }
        let store = ModelStore(Counter())
        try await CommandRunner(store: store, journalLimit: 1_000).run(Parent())
        #expect(store.model == Counter(value: 5, log: ["parent", "recovered"]))
    }

    @Test("when one concurrent child fails, its siblings are cancelled and the whole group rolls back")
    func siblingsCancelled() async throws {
        struct Group: AsyncCommand {
            func execute(_ context: CommandContext<Counter>) async throws {
                try await context.mutate { $0.log.append("before") }
                try await context.runConcurrently([
                    Forever(), SlowAppend(text: "bad", failAfterMutating: true), Forever(),
                ])
            }
        }
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        await #expect(throws: MessageError("bad failed after staging.")) { try await runner.run(Group()) }
        #expect(store.model == Counter())
    }

    @Test("a context used after its command finished throws contextExpired")
    func contextExpires() async throws {
        struct Leak: AsyncCommand {
            let box: Locked<CommandContext<Counter>?>
            func execute(_ context: CommandContext<Counter>) async throws {
                box.withLock { $0 = context }
            }
        }
        let box = Locked<CommandContext<Counter>?>(nil)
        let runner = CommandRunner(store: ModelStore(Counter()), journalLimit: 1_000)
        try await runner.run(Leak(box: box))
        let context = try #require(box.withLock { $0 })
        await #expect(throws: CommandError.contextExpired(command: "Leak")) {
            try await context.mutate { $0.value = 99 }
        }
        #expect(runner.store.model.value == 0)
    }

    @Test("a command that stages nothing announces no change")
    func noStagedChanges() async throws {
        struct ReadOnly: AsyncCommand {
            func execute(_ context: CommandContext<Counter>) async throws -> Int { context.model.value }
        }
        let store = ModelStore(Counter(value: 3))
        let seen = Locked(0)
        let observation = store.observe { _ in seen.withLock { $0 += 1 } }
        #expect(try await CommandRunner(store: store, journalLimit: 1_000).run(ReadOnly()) == 3)
        #expect(seen.withLock { $0 } == 0)
        _ = observation
    }
}
