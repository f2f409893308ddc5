import Commands
import Errors
import Testing

/// Waits at `gate` without honouring cancellation: a command that "runs forever" and ignores
/// being cancelled (a stubborn network call, a continuation nobody resumes).
struct Stubborn: AsyncCommand {
    var started: Gate
    var gate: Gate

    func execute(_ context: CommandContext<Counter>) async throws -> Int {
        try await context.mutate { $0.log.append("stubborn") }
        started.open()
        await gate.wait()
        return 1
    }
}

/// Reads the context's view of the model from inside its own `mutate` block.
struct ReadsContextInsideMutate: AsyncCommand {
    func execute(_ context: CommandContext<Counter>) async throws -> Int {
        try await context.mutate { model in
            model.value = context.model.value + 5
            return model.value
        }
    }
}

/// Stages a change, then fails.
struct StageThenFail: AsyncCommand {
    func execute(_ context: CommandContext<Counter>) async throws {
        try await context.mutate { $0.value += 1 }
        try await context.mutate { $0.log.append("staged") }
        throw MessageError("StageThenFail failed after staging.")
    }
}

@Suite("Review findings")
struct ReviewFindingsTests {
    // MARK: - Cancellation

    @Test("cancelling a command that ignores cancellation still ends run with cancelled, model untouched")
    func cancelStubbornCommand() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let started = Gate()
        let gate = Gate()
        let outcome = Box<Swift.Result<Int, any Error>?>(nil)
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
        await eventually("run returns after cancel(id:)") { outcome.current != nil }
        let result = try #require(outcome.current)
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
        let outcome = Box<String?>(nil)
        runner.run(Stubborn(started: started, gate: gate), id: "s") { result in
            if case .failure(let error) = result { outcome.withLock { $0 = error.userMessage } }
        }
        await started.wait()
        runner.cancel(id: "s")
        await eventually("the completion is called after cancel(id:)") { outcome.current != nil }
        #expect(outcome.current == CommandError.cancelled(command: "Stubborn").message)
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

    // MARK: - Context

    @Test("a mutate block may read context.model without deadlocking")
    func readContextInsideMutate() async throws {
        let store = ModelStore(Counter(value: 1))
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let finished = Box<Int?>(nil)
        let task = Task.detached {
            let value = try await runner.run(ReadsContextInsideMutate())
            finished.withLock { $0 = value }
        }
        await eventually("the command finishes") { finished.current != nil }
        guard finished.current != nil else { return }  // deadlocked: do not wait on it
        try await task.value
        #expect(finished.current == 6)
        #expect(store.model.value == 6)
    }

    // MARK: - All or nothing: history and journal

    @Test("failed sync, async and batch commands leave model, undo history and journal's applied entries as before")
    func failuresLeaveHistoryUntouched() async throws {
        let store = ModelStore(Counter())
        let saves = Box(0)
        let runner = CommandRunner(store: store, journalLimit: 1_000) { _ in saves.withLock { $0 += 1 } }
        try runner.execute(Add(amount: 1, savesModel: true))
        let before = store.model
        #expect(throws: MessageError("Nothing to append.")) { try runner.execute(Append(text: "")) }
        await #expect(throws: MessageError("StageThenFail failed after staging.")) {
            try await runner.run(StageThenFail())
        }
        #expect(throws: MessageError("Cannot add -1.")) {
            try runner.execute(
                CommandBatch([Add(amount: 5, savesModel: true), Add(amount: -1)], savesModel: true))
        }
        #expect(store.model == before)
        #expect(runner.undoName == "Add")
        #expect(!runner.canRedo)
        #expect(saves.current == 1)
        let outcomes = runner.journal.map(\.outcome.appliedChanges)
        #expect(outcomes == [true, false, false, false])
        try await runner.undo()
        #expect(store.model == Counter())
        await #expect(throws: CommandError.nothingToUndo) { try await runner.undo() }
    }

    // MARK: - Ordering

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
        let seen = Box<[Counter]>([])
        let broken = Box(0)
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
        #expect(broken.current == 0)
        #expect(seen.current.count == adds * 2 + slow)
        #expect(seen.current.last == store.model)
        #expect(store.model.value == adds * 1001 + slow)
        observation.cancel()
    }

    // MARK: - Memory

    @Test("store and runner are released after use, observers and async commands included")
    func releasedAfterUse() async throws {
        weak var weakStore: ModelStore<Counter>?
        weak var weakRunner: CommandRunner<Counter>?
        do {
            let store = ModelStore(Counter())
            let runner = CommandRunner(store: store, journalLimit: 1_000) { _ in }
            weakStore = store
            weakRunner = runner
            let observation = store.observe { change in
                if change.name == "SlowAppend" { runner.run(Add(amount: 1)) { _ in } }
            }
            let changes = Task {
                for await _ in store.changes {}
            }
            try runner.execute(Add(amount: 1, savesModel: true))
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
