import Testing

@testable import Operations

/// The runner keeps its bookkeeping on the operations themselves: these tests cover the paths
/// where that could go wrong (an operation queued twice, dependencies that finish while a
/// dependent is being added, dependencies in other runners, references kept too long).
@Suite("The runner's bookkeeping")
struct RunnerBookkeepingTests {
    @Test("an operation that gains a dependency while queued waits for it, then runs once")
    func readyTwiceRunsOnce() async throws {
        let runner = OperationRunner(maxConcurrent: 1)
        runner.isSuspended = true
        let gauge = Gauge()
        let op = StatefulOperation(base: .none) { gauge.enter() }
        try runner.add(op).get()
        let outside = StatefulOperation(base: .none) { 1 }
        try runner.addDependency(op, on: outside.ignoringFailure).get()
        // `outside` belongs to no runner, so the runner adopted it: it runs first.
        runner.isSuspended = false
        await runner.waitUntilIdle()
        #expect(gauge.total == 1)
        #expect(outside.isFinished && op.isFinished)
        #expect(runner.count == 0)
    }

    @Test("a queued operation whose dependency finished elsewhere is queued again and runs once")
    func externalDependencyRequeues() async throws {
        let runner = OperationRunner(maxConcurrent: 1)
        runner.isSuspended = true
        let gauge = Gauge()
        let op = StatefulOperation(base: .none) { gauge.enter() }
        let elsewhere = StatefulOperation(base: .none) { 2 }
        elsewhere.start()
        try runner.add(op).get()
        try runner.addDependency(op, on: elsewhere).get()
        _ = await elsewhere.outcome
        await settle { runner.state.withLock { $0.ready.count - $0.readyHead } == 2 }
        runner.isSuspended = false
        await runner.waitUntilIdle()
        #expect(gauge.total == 1)
    }

    @Test("dependents added while their dependency finishes always run after it", arguments: [1, 4])
    func dependencyFinishingDuringAdd(maxConcurrent: Int) async {
        let runner = OperationRunner(maxConcurrent: maxConcurrent)
        let log = EventLog()
        var dependents: [StatefulOperation<Void, Never>] = []
        for index in 0..<500 {
            let dependency = StatefulOperation(base: .none) { log.record("d\(index)") }
            runner.add(dependency)
            let dependent = StatefulOperation(base: .none) { log.record("e\(index)") }
            runner.add(dependent, after: dependency)
            dependents.append(dependent)
        }
        await runner.waitUntilIdle()
        let events = log.all
        #expect(events.count == 1_000)
        for index in 0..<500 {
            let dependency = events.firstIndex(of: "d\(index)")
            let dependent = events.firstIndex(of: "e\(index)")
            #expect((dependency ?? .max) < (dependent ?? .min), "d\(index) must come before e\(index)")
        }
        #expect(dependents.allSatisfy { $0.isFinished })
    }

    @Test("a dependency in another runner is waited for, and its failure cancels the dependent")
    func dependencyInAnotherRunner() async {
        let first = OperationRunner()
        let second = OperationRunner()
        let clock = ManualClock()
        let slow = StatefulOperation(base: .none) { () async throws -> Int in
            try await clock.sleep(for: .seconds(1))
            return 1
        }
        let failing = StatefulOperation(base: .none) { () throws -> Int in throw LoginError.invalidCredentials }
        first.add(slow)
        first.add(failing)
        let log = EventLog()
        let waits = StatefulOperation(base: .none) { log.record("waits ran") }
        let cancelled = StatefulOperation(base: .none) { log.record("cancelled ran") }
        second.add(waits, after: slow)
        second.add(cancelled, after: failing)
        await clock.waitForSleepers(1)
        #expect(!waits.isFinished)
        clock.advance(by: .seconds(1))
        await second.waitUntilIdle()
        #expect(log.all == ["waits ran"])
        #expect(await cancelled.outcome.isCancelled)
    }

    @Test("an operation cancelled while queued in a suspended runner is released once it finished")
    func cancelledWhileQueuedIsReleased() async {
        let runner = OperationRunner()
        runner.isSuspended = true
        weak var weakOperation: StatefulOperation<Int, Never>?
        do {
            let op = StatefulOperation(base: .none) { () async throws(Never) -> Int in 1 }
            weakOperation = op
            runner.add(op)
            op.cancel()
        }
        await runner.waitUntilIdle()
        await settle { weakOperation == nil }
        #expect(weakOperation == nil)
    }

    @Test("a dependent cancelled while waiting for an operation elsewhere is released before that one ends")
    func cancelledDependentReleased() async {
        let runner = OperationRunner()
        let clock = ManualClock()
        let elsewhere = StatefulOperation(base: .none) { try await clock.sleep(for: .seconds(1)) }
        elsewhere.start()
        weak var weakDependent: StatefulOperation<Int, Never>?
        do {
            let dependent = StatefulOperation(base: .none) { () async throws(Never) -> Int in 1 }
            weakDependent = dependent
            runner.add(dependent, after: elsewhere)
            dependent.cancel()
        }
        await runner.waitUntilIdle()
        await settle { weakDependent == nil }
        #expect(weakDependent == nil)
        elsewhere.cancel()
        #expect(await elsewhere.outcome.isCancelled)
    }

    @Test("a runner is released once its operations finished")
    func runnerReleased() async {
        weak var weakRunner: OperationRunner?
        do {
            let runner = OperationRunner(maxConcurrent: 2)
            weakRunner = runner
            var previous: StatefulOperation<Void, Never>?
            for _ in 0..<20 {
                let op = StatefulOperation(base: .none) {}
                if let previous { runner.add(op, after: previous, exclusiveIn: "one") } else { runner.add(op) }
                previous = op
            }
            await runner.waitUntilIdle()
        }
        await settle { weakRunner == nil }
        #expect(weakRunner == nil)
    }

    @Test("an operation that adds another to its own runner and awaits it does not wait forever")
    func addFromInsideAWorker() async {
        let runner = OperationRunner(maxConcurrent: 2)
        let outer = StatefulOperation(base: .none) { () async -> Int in
            let inner = StatefulOperation(base: .none) { 41 }
            runner.add(inner)
            return await inner.outcome.value.map { $0 + 1 } ?? 0
        }
        runner.add(outer)
        #expect(await outer.outcome.value == 42)
    }

    @Test("cancelAll racing workers that finish operations leaves the runner empty")
    func cancelAllRacingFinishes() async {
        for round in 0..<20 {
            let runner = OperationRunner(maxConcurrent: 3)
            var operations: [StatefulOperation<Int, Never>] = []
            for index in 0..<200 {
                let op = StatefulOperation(base: .none) { () async throws(Never) -> Int in
                    if index.isMultiple(of: 3) { await Task.yield() }
                    return index
                }
                if index.isMultiple(of: 5), let previous = operations.last {
                    runner.add(op, after: previous.ignoringFailure, exclusiveIn: "even\(round % 2)")
                } else {
                    runner.add(op)
                }
                operations.append(op)
            }
            runner.cancelAll()
            await runner.waitUntilIdle()
            #expect(runner.count == 0)
            #expect(operations.allSatisfy { $0.isFinished })
        }
    }
}
