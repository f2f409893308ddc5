import Testing

@testable import Operations

@Suite("Memory")
struct LeakTests {
    @Test("an operation whose callbacks capture it is released after it finishes")
    func standaloneReleased() async {
        weak var weakOperation: StatefulOperation<Int, Never>?
        do {
            let op = StatefulOperation(base: .none) { () async throws(Never) -> Int in 1 }
            op.onFinish(on: .caller) { _ in _ = op.isFinished }.onSuccess(on: .caller) { _ in _ = op }
            weakOperation = op
            op.start()
            _ = await op.outcome
        }
        await settle { weakOperation == nil }
        #expect(weakOperation == nil)
    }

    @Test("operations run by a runner are released after they finish")
    func runnerReleases() async {
        let runner = OperationRunner(maxConcurrent: 2)
        weak var weakFirst: StatefulOperation<Int, Never>?
        weak var weakSecond: StatefulOperation<Int, Never>?
        do {
            let first = StatefulOperation(base: .none) { () async throws(Never) -> Int in 1 }
            let second = StatefulOperation(base: .none) { () async throws(Never) -> Int in 2 }
            first.onFinish(on: .caller) { _ in _ = second }
            second.onFinish(on: .caller) { _ in _ = first }
            weakFirst = first
            weakSecond = second
            runner.add(second, after: first)
            await runner.waitUntilIdle()
        }
        await settle { weakFirst == nil && weakSecond == nil }
        #expect(weakFirst == nil && weakSecond == nil)
    }

    @Test("an operation that never starts is released with its last reference")
    func idleReleased() {
        weak var weakOperation: StatefulOperation<Int, Never>?
        do {
            let op = StatefulOperation(base: .none) { () async throws(Never) -> Int in 1 }
            weakOperation = op
        }
        #expect(weakOperation == nil)
    }
}
