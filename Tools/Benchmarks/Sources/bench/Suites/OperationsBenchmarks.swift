import Foundation
import Operations

/// Benchmarks of the Operations package against its peers (see the package's issue for the targets).
enum OperationsBenchmarks {
    static func cases() async throws -> [BenchmarkCase] {
        [
            BenchmarkCase(
                suite: "operations", name: "spawn-and-finish-100k", peer: "OperationQueue", target: 2,
                ours: { await spawnAndFinish(100_000) }, theirs: { operationQueueSpawn(100_000) }),
            BenchmarkCase(
                suite: "operations", name: "spawn-and-finish-100k", peer: "withDiscardingTaskGroup", target: 0.5,
                ours: { await spawnAndFinish(100_000) }, theirs: { await taskGroupSpawn(100_000) }),
            BenchmarkCase(
                suite: "operations", name: "dependency-chain-20k", peer: "OperationQueue", target: 2,
                ours: { await dependencyChain(20_000) }, theirs: { operationQueueChain(20_000) }),
            BenchmarkCase(
                suite: "operations", name: "cancel-all-10k-pending",
                ours: { _ = await cancelAllPending(10_000) },
                metrics: {
                    var samples: [Double] = []
                    for _ in 0..<5 { samples.append(await cancelAllPending(10_000)) }
                    return ["cancel_to_last_finish_ms": samples.sorted()[samples.count / 2] / 1e6]
                }),
        ]
    }

    /// Adds `count` trivial operations to a runner and waits for all of them.
    static func spawnAndFinish(_ count: Int) async {
        let runner = OperationRunner()
        for _ in 0..<count {
            runner.add(StatefulOperation {})
        }
        await runner.waitUntilIdle()
    }

    static func operationQueueSpawn(_ count: Int) {
        let queue = OperationQueue()
        for _ in 0..<count {
            queue.addOperation(BlockOperation {})
        }
        queue.waitUntilAllOperationsAreFinished()
    }

    static func taskGroupSpawn(_ count: Int) async {
        await withDiscardingTaskGroup { group in
            for _ in 0..<count {
                group.addTask {}
            }
        }
    }

    /// Runs `count` trivial operations, each depending on the one before.
    static func dependencyChain(_ count: Int) async {
        let runner = OperationRunner()
        var previous: StatefulOperation<Void, Never>?
        for _ in 0..<count {
            let operation = StatefulOperation {}
            if let previous { runner.add(operation, after: previous) } else { runner.add(operation) }
            previous = operation
        }
        await runner.waitUntilIdle()
    }

    static func operationQueueChain(_ count: Int) {
        let queue = OperationQueue()
        var operations: [BlockOperation] = []
        operations.reserveCapacity(count)
        for index in 0..<count {
            let operation = BlockOperation {}
            if index > 0 { operation.addDependency(operations[index - 1]) }
            operations.append(operation)
        }
        queue.addOperations(operations, waitUntilFinished: true)
    }

    /// Fills a suspended runner with `count` operations, cancels them all, and returns the
    /// nanoseconds from `cancelAll()` to the last finish callback.
    static func cancelAllPending(_ count: Int) async -> Double {
        let runner = OperationRunner()
        runner.isSuspended = true
        let finished = FinishCounter(expected: count)
        for _ in 0..<count {
            runner.add(StatefulOperation {}.onFinish(on: .caller) { _ in finished.increment() })
        }
        let clock = ContinuousClock()
        let start = clock.now
        runner.cancelAll()
        await finished.wait()
        let elapsed = start.duration(to: clock.now)
        await runner.waitUntilIdle()
        let (seconds, attoseconds) = elapsed.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// Counts finish callbacks and wakes a waiter at the expected count.
private final class FinishCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private let expected: Int
    private var waiter: CheckedContinuation<Void, Never>?

    init(expected: Int) { self.expected = expected }

    func increment() {
        lock.lock()
        count += 1
        let done = count == expected ? waiter : nil
        if done != nil { waiter = nil }
        lock.unlock()
        done?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if count >= expected {
                lock.unlock()
                continuation.resume()
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }
}
