import Commands
import Errors
import Foundation
import Testing
import _KitSupport

/// When a group of changes fails to save, the undo history goes back exactly to what it was
/// before the group, step by step, even when the group's steps pushed the oldest ones out of a
/// full history, undid a step, or cleared the history.
@Suite("A failed group puts the whole undo history back")
struct FailedGroupHistoryTests {
    /// A save step that holds the call at `holdAt` until the test opens `gate`, and fails the
    /// call at `failAt`; every other call succeeds.
    final class ScriptedSave: Sendable {
        let gate = Gate()
        let calls = Locked(0)
        let holdAt: Int
        let failAt: Int

        init(holdAt: Int, failAt: Int) {
            self.holdAt = holdAt
            self.failAt = failAt
        }

        var step: SaveStep<Counter> {
            .async { _ in
                let index = self.calls.withLock { calls in
                    calls += 1
                    return calls - 1
                }
                if index == self.holdAt { await self.gate.wait() }
                if index == self.failAt { throw MessageError("The disk is full.") }
            }
        }
    }

    /// The values undo walks back through, and whether redo has a step, read by undoing every
    /// step (the saves succeed again by then).
    func walkBack(_ runner: CommandRunner<Counter>) async throws -> (values: [Int], couldRedo: Bool) {
        let couldRedo = runner.canRedo
        var values: [Int] = []
        while runner.canUndo {
            try await runner.undo()
            values.append(runner.store.model.value)
        }
        return (values, couldRedo)
    }

    /// Fills a history of 3 steps (values 0, 1, 3 behind a model of 6), then commits `1 + group`
    /// changes: the first alone, held at its save while `group` queues behind it as one group,
    /// whose save fails. Returns the runner after every change settled.
    func runFailingGroup(
        _ group: [@Sendable (CommandRunner<Counter>) async throws -> Void]
    ) async throws -> CommandRunner<Counter> {
        let save = ScriptedSave(holdAt: 3, failAt: 4)
        let runner = CommandRunner(store: ModelStore(Counter()), undoLimit: 3, save: save.step)
        for amount in 1...3 { try await runner.run(Add(amount: amount)) }
        let first = Task { try await runner.run(Add(amount: 4)) }
        await eventually("the held save started") { save.calls.withLock { $0 } == 4 }
        let queued = group.map { job in Task { try await job(runner) } }
        try await Task.sleep(for: .milliseconds(60))
        save.gate.open()
        #expect(try await first.value == 10)
        for task in queued {
            await #expect(throws: CommandError.self) { try await task.value }
        }
        #expect(runner.store.model.value == 10)
        return runner
    }

    @Test("steps that pushed every older step out of a full history are rolled back, and the older steps return")
    func pushedOutStepsReturn() async throws {
        let runner = try await runFailingGroup(
            (5...9).map { amount in { runner in _ = try await runner.run(Add(amount: amount)) } })
        let walked = try await walkBack(runner)
        #expect(walked.values == [6, 3, 1])
        #expect(!walked.couldRedo)
    }

    @Test("an undo and new steps inside the failed group leave the history and redo as they were")
    func undoInsideTheGroup() async throws {
        let runner = try await runFailingGroup([
            { runner in try await runner.undo() },
            { runner in _ = try await runner.run(Add(amount: 5)) },
            { runner in _ = try await runner.run(Add(amount: 6)) },
        ])
        let walked = try await walkBack(runner)
        #expect(walked.values == [6, 3, 1])
        #expect(!walked.couldRedo)
    }

    @Test("a cleared history inside the failed group comes back whole")
    func clearedInsideTheGroup() async throws {
        let runner = try await runFailingGroup([
            { runner in _ = try await runner.run(Add(amount: 5)) },
            { runner in _ = try await runner.run(Add(amount: 6, undoBehavior: .clearHistory)) },
            { runner in _ = try await runner.run(Add(amount: 7)) },
        ])
        let walked = try await walkBack(runner)
        #expect(walked.values == [6, 3, 1])
    }

    @Test("after a failed group, the next group saves and records its steps on the restored history")
    func nextGroupBuildsOnTheRestoredHistory() async throws {
        let runner = try await runFailingGroup(
            (5...9).map { amount in { runner in _ = try await runner.run(Add(amount: amount)) } })
        try await runner.run(Add(amount: 100))
        let walked = try await walkBack(runner)
        #expect(walked.values == [10, 6, 3])
    }
}
