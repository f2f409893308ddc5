import Testing
import _KitSupport

@testable import Operations

@Suite("The operation runner")
struct RunnerTests {
    @Test("operations added from synchronous code start in the order they were added")
    func fifoStartOrder() async {
        let runner = OperationRunner(maxConcurrent: 4)
        let order = Locked<[Int]>([])
        for index in 0..<500 {
            runner.add(
                StatefulOperation(base: .none) { index }.onStart(on: .caller) { order.withLock { $0.append(index) } })
        }
        await runner.waitUntilIdle()
        #expect(order.withLock { $0 } == Array(0..<500))
    }

    @Test("main-actor start callbacks also run in the order operations were added")
    @MainActor
    func fifoOnMainActor() async {
        let runner = OperationRunner(maxConcurrent: 3)
        let order = Locked<[Int]>([])
        for index in 0..<100 {
            runner.add(StatefulOperation(base: .none) { index }.onStart { order.withLock { $0.append(index) } })
        }
        await runner.waitUntilIdle()
        #expect(order.withLock { $0 } == Array(0..<100))
    }

    @Test("no more than maxConcurrent operations run at once", arguments: [1, 2, 3])
    func concurrencyLimit(limit: Int) async {
        let runner = OperationRunner(maxConcurrent: limit)
        let gauge = Gauge()
        for _ in 0..<60 {
            runner.add(
                StatefulOperation(base: .none) {
                    gauge.enter()
                    for _ in 0..<5 { await Task.yield() }
                    gauge.leave()
                })
        }
        await runner.waitUntilIdle()
        #expect(gauge.total == 60)
        #expect(gauge.highest <= limit)
    }

    @Test("a dependent starts only after its dependency finished, and gets to run")
    func dependencyOrder() async {
        let runner = OperationRunner(maxConcurrent: 4)
        let log = EventLog()
        let first = StatefulOperation(base: .none) { log.record("first work") }
            .onFinish(on: .caller) { _ in log.record("first finish") }
        let second = StatefulOperation(base: .none) { log.record("second work") }
        runner.add(second, after: first)
        await runner.waitUntilIdle()
        #expect(log.all == ["first work", "first finish", "second work"])
    }

    @Test("a failed dependency cancels dependents that require success, down the chain")
    func requireSuccess() async {
        let runner = OperationRunner()
        let ran = EventLog()
        let failing = StatefulOperation(base: .none) { () throws -> Int in throw LoginError.invalidCredentials }
        let middle = StatefulOperation(base: .none) { ran.record("middle") }
        let last = StatefulOperation(base: .none) { ran.record("last") }
        runner.add(failing)
        runner.add(middle, after: failing)
        runner.add(last, after: middle)
        await runner.waitUntilIdle()
        #expect(await middle.outcome.isCancelled)
        #expect(await last.outcome.isCancelled)
        #expect(ran.all.isEmpty)
    }

    @Test("a dependent that ignores failure runs after its dependency failed or was cancelled")
    func ignoreFailure() async {
        let runner = OperationRunner()
        let failing = StatefulOperation(base: .none) { () throws -> Int in throw LoginError.invalidCredentials }
        let cancelled = StatefulOperation(base: .none) { 1 }
        cancelled.cancel()
        let cleanup = StatefulOperation(base: .none) { "cleaned" }
        runner.add(failing)
        runner.add(cleanup, after: failing.ignoringFailure, OperationDependency(cancelled, policy: .ignoreFailure))
        await runner.waitUntilIdle()
        #expect(await cleanup.outcome.value == "cleaned")
    }

    @Test("a dependency nobody started is added with its dependent")
    func adoptsDependencies() async {
        let runner = OperationRunner()
        let user = StatefulOperation(base: .none) { "user" }
        let avatar = StatefulOperation(base: .none) { "avatar" }
        runner.add(avatar, after: user)
        await runner.waitUntilIdle()
        #expect(user.isFinished && avatar.isFinished)
    }

    @Test("a dependency cycle is refused when added, with a typed error, and nothing starts")
    func cycleDetection() async throws {
        let runner = OperationRunner()
        runner.isSuspended = true
        let a = StatefulOperation(base: .none) { "a" }.named("a")
        let b = StatefulOperation(base: .none) { "b" }.named("b")
        let c = StatefulOperation(base: .none) { "c" }.named("c")
        try runner.add(a).get()
        try runner.add(b, after: a).get()
        try runner.add(c, after: b).get()
        #expect(throws: OperationRunnerError.dependencyCycle(path: ["a", "c", "b", "a"])) {
            try runner.addDependency(a, on: c).get()
        }
        #expect(throws: OperationRunnerError.dependencyCycle(path: ["a", "a"])) {
            try runner.addDependency(a, on: a).get()
        }
        let selfish = StatefulOperation(base: .none) { 0 }.named("selfish")
        #expect(throws: OperationRunnerError.dependencyCycle(path: ["selfish", "selfish"])) {
            try runner.add(selfish, after: selfish).get()
        }
        #expect(selfish.lifecycle.isIdle)
        #expect(!a.lifecycle.isExecuting && !a.isFinished)
        runner.isSuspended = false
        await runner.waitUntilIdle()
        #expect(await c.outcome.value == "c")
    }

    @Test("a new dependency between waiting operations is honoured")
    func addDependencyLater() async throws {
        let runner = OperationRunner(maxConcurrent: 1)
        runner.isSuspended = true
        let log = EventLog()
        let a = StatefulOperation(base: .none) { log.record("a") }
        let b = StatefulOperation(base: .none) { log.record("b") }
        runner.add(a)
        runner.add(b)
        try runner.addDependency(a, on: b).get()
        runner.isSuspended = false
        await runner.waitUntilIdle()
        #expect(log.all == ["b", "a"])
        #expect(throws: OperationRunnerError.notPending(operation: a.lifecycle.name)) {
            try runner.addDependency(a, on: b).get()
        }
    }

    @Test("adding an operation twice, a started one or a cancelled one is a typed error")
    func badAdds() async {
        let runner = OperationRunner()
        runner.isSuspended = true
        let op = StatefulOperation(base: .none) { 1 }.named("op")
        #expect(throws: Never.self) { try runner.add(op).get() }
        #expect(throws: OperationRunnerError.alreadyAdded(operation: "op")) { try runner.add(op).get() }
        let other = OperationRunner()
        #expect(throws: OperationRunnerError.alreadyStarted(operation: "op")) { try other.add(op).get() }
        let cancelled = StatefulOperation(base: .none) { 1 }.named("gone")
        cancelled.cancel()
        #expect(throws: OperationRunnerError.alreadyFinished(operation: "gone")) { try runner.add(cancelled).get() }
        runner.isSuspended = false
        await runner.waitUntilIdle()
        let finished = StatefulOperation(base: .none) { 1 }.named("done")
        _ = await finished.outcome
        #expect(throws: OperationRunnerError.alreadyFinished(operation: "done")) { try runner.add(finished).get() }
    }

    @Test("a concurrency limit below 1 is clamped, or refused by the validating initializer", arguments: [0, -1, -100])
    func invalidLimit(limit: Int) {
        #expect(OperationRunner(maxConcurrent: limit).maxConcurrent == 1)
        #expect(throws: OperationRunnerError.invalidConcurrencyLimit(limit)) {
            try OperationRunner(validatingMaxConcurrent: limit)
        }
    }

    @Test("operations sharing a category never overlap and run in the order added")
    func exclusivity() async {
        let runner = OperationRunner(maxConcurrent: 8)
        let gauge = Gauge()
        let order = Locked<[Int]>([])
        for index in 0..<40 {
            runner.add(
                StatefulOperation(base: .none) {
                    gauge.enter()
                    order.withLock { $0.append(index) }
                    for _ in 0..<3 { await Task.yield() }
                    gauge.leave()
                }, exclusiveIn: "database")
            runner.add(StatefulOperation(base: .none) { await Task.yield() })
        }
        await runner.waitUntilIdle()
        #expect(gauge.highest == 1)
        #expect(order.withLock { $0 } == Array(0..<40))
    }

    @Test("cancelAll finishes waiting operations in order, cancels running work, and propagates to dependents")
    func cancelAll() async {
        let runner = OperationRunner(maxConcurrent: 1)
        let clock = ManualClock()
        let blocker = StatefulOperation(base: .none) { try await clock.sleep(for: .seconds(60)) }
        let finishes = Locked<[Int]>([])
        runner.add(blocker)
        var pending: [StatefulOperation<Int, any Error>] = []
        for index in 0..<100 {
            let op = StatefulOperation(base: .none) { () async throws -> Int in index }
                .onFinish(on: .caller) { outcome in if outcome.isCancelled { finishes.withLock { $0.append(index) } } }
            if let previous = pending.last { runner.add(op, after: previous) } else { runner.add(op, after: blocker) }
            pending.append(op)
        }
        await clock.waitForSleepers(1)
        runner.cancelAll()
        await runner.waitUntilIdle()
        #expect(await blocker.outcome.isCancelled)
        #expect(finishes.withLock { $0 } == Array(0..<100))
        #expect(runner.count == 0)
        let later = StatefulOperation(base: .none) { "after" }
        runner.add(later)
        #expect(await later.outcome.value == "after")
    }

    @Test("cancelling one running operation cancels its dependents")
    func cancelPropagates() async {
        let runner = OperationRunner()
        let clock = ManualClock()
        let parent = StatefulOperation(base: .none) { try await clock.sleep(for: .seconds(1)) }
        let child = StatefulOperation(base: .none) { 1 }
        let grandchild = StatefulOperation(base: .none) { 2 }
        runner.add(child, after: parent)
        runner.add(grandchild, after: child)
        await clock.waitForSleepers(1)
        parent.cancel()
        await runner.waitUntilIdle()
        #expect(await child.outcome.isCancelled)
        #expect(await grandchild.outcome.isCancelled)
    }

    @Test("waitUntilIdle returns at once for an empty runner")
    func idleAtOnce() async {
        await OperationRunner().waitUntilIdle()
    }

    @Test("a suspended runner holds ready operations until it resumes")
    func suspension() async {
        let runner = OperationRunner()
        runner.isSuspended = true
        let op = StatefulOperation(base: .none) { 1 }
        runner.add(op)
        for _ in 0..<100 { await Task.yield() }
        #expect(!op.isFinished && runner.count == 1)
        runner.isSuspended = false
        await runner.waitUntilIdle()
        #expect(op.isFinished)
    }
}
