import Commands
import Errors
import Testing
import _KitSupport

/// Awaits `inner` on the runner it is run with, from inside its own `execute`, then stages
/// `text`; fails afterwards when asked to.
struct RunsNested: AsyncCommand {
    let runner: CommandRunner<Counter>
    var inner: SlowAppend
    var text: String
    var failAfterwards = false

    func execute(_ context: CommandContext<Counter>) async throws -> String {
        let innerResult = try await runner.run(inner)
        try await context.mutate { $0.log.append(text) }
        if failAfterwards { throw MessageError("\(text) failed after its nested command.") }
        return innerResult
    }
}

/// Three levels: awaits a ``RunsNested`` on the same runner.
struct RunsNestedTwice: AsyncCommand {
    let runner: CommandRunner<Counter>

    func execute(_ context: CommandContext<Counter>) async throws {
        _ = try await runner.run(RunsNested(runner: runner, inner: SlowAppend(text: "innermost"), text: "middle"))
        try await context.mutate { $0.log.append("outer") }
    }
}

@Suite("Nested runs")
struct NestedRunTests {
    /// Runs `body` in a detached task and waits for it; records an issue instead of hanging
    /// when it does not finish.
    func finishes(_ what: String, _ body: @escaping @Sendable () async throws -> Void) async throws {
        let outcome = Locked<Swift.Result<Void, any Error>?>(nil)
        let task = Task.detached {
            do {
                try await body()
                outcome.withLock { $0 = .success(()) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
        }
        await eventually(what) { outcome.withLock { $0 } != nil }
        guard let result = outcome.withLock({ $0 }) else { return }  // deadlocked: do not wait on it
        await task.value
        try result.get()
    }

    @Test("an async command awaiting runner.run of another on the same runner finishes; the inner change commits first")
    func nestedRunFinishes() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let result = Locked<String?>(nil)
        try await finishes("the outer command finishes") {
            let value = try await runner.run(
                RunsNested(runner: runner, inner: SlowAppend(text: "inner"), text: "outer"))
            result.withLock { $0 = value }
        }
        #expect(result.withLock { $0 } == "inner")
        #expect(store.model == Counter(value: 1, log: ["inner", "outer"]))
        #expect(runner.journal.map(\.name) == ["SlowAppend", "RunsNested"])
        try await runner.undo()
        #expect(store.model == Counter(value: 1, log: ["inner"]))
    }

    @Test("nesting two levels deep finishes too")
    func doublyNested() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        try await finishes("the outermost command finishes") { try await runner.run(RunsNestedTwice(runner: runner)) }
        #expect(store.model.log == ["innermost", "middle", "outer"])
    }

    @Test("a nested command still commits after the commands submitted before its outer command")
    func nestedWaitsForEarlierCommands() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let gate = Gate()
        let first = Task { try await runner.run(SlowAppend(text: "first", gate: gate), id: "first") }
        await eventually("the first command is submitted") { runner.runningIDs.contains("first") }
        let outer = Task {
            try await runner.run(RunsNested(runner: runner, inner: SlowAppend(text: "inner"), text: "outer"))
        }
        await Task.yield()
        #expect(store.model.log.isEmpty)
        gate.open()
        _ = try await first.value
        try await finishes("the outer command finishes") { _ = try await outer.value }
        #expect(store.model.log == ["first", "inner", "outer"])
    }

    @Test("when the outer command fails, its own changes are dropped and the nested command's stay")
    func outerFailureKeepsNestedChange() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        try await finishes("the outer command fails") {
            await #expect(throws: MessageError("outer failed after its nested command.")) {
                try await runner.run(
                    RunsNested(runner: runner, inner: SlowAppend(text: "inner"), text: "outer", failAfterwards: true))
            }
        }
        #expect(store.model == Counter(value: 1, log: ["inner"]))
    }
}
