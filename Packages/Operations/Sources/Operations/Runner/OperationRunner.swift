import Foundation
import _KitSupport

/// Runs operations with a concurrency limit, dependencies, mutual exclusion and cancellation.
///
/// ```swift
/// let runner = OperationRunner(maxConcurrent: 4)
/// runner.add(fetchUser)
/// runner.add(fetchAvatar, after: fetchUser)
/// await runner.waitUntilIdle()
/// ```
///
/// Operations added from synchronous code start in the order they were added (their start
/// callbacks run in that order). An operation waits for its dependencies to finish; under
/// ``DependencyPolicy/requireSuccess`` (the default) a dependency's failure or cancellation
/// cancels it, and so on down the graph. Operations sharing an exclusivity category run one at
/// a time, in the order they were added. The runner keeps an operation only until it finishes.
public final class OperationRunner: Sendable {
    struct State {
        /// The operations in the runner, in the order they were added.
        var members = Members()
        /// Ready operations in FIFO order; a slot is emptied when its operation is taken. A slot
        /// whose operation is no longer ready (it was cancelled, or gained a dependency) is skipped.
        var ready: [OperationLifecycle?] = []
        var readyHead = 0
        var workers = 0
        var isSuspended = false
        var lastInCategory: [String: OperationLifecycle] = [:]
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The most operations that run at once.
    public let maxConcurrent: Int
    let state = Locked(State())
    let starts = StartSequencer()

    /// Creates a runner. A limit below 1 is treated as 1 (use ``init(validatingMaxConcurrent:)``
    /// to get an error instead).
    /// - Parameter maxConcurrent: The most operations that run at once; by default the number
    ///   of active processor cores, like `OperationQueue`.
    public init(maxConcurrent: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.maxConcurrent = max(1, maxConcurrent)
    }

    /// Creates a runner, refusing a limit below 1.
    /// - Throws: ``OperationRunnerError/invalidConcurrencyLimit(_:)``.
    public init(validatingMaxConcurrent maxConcurrent: Int) throws(OperationRunnerError) {
        guard maxConcurrent >= 1 else { throw .invalidConcurrencyLimit(maxConcurrent) }
        self.maxConcurrent = maxConcurrent
    }

    /// Adds an operation that runs once its dependencies finished and a slot is free.
    ///
    /// A dependency that was never started is added too, before the operation. Bad input
    /// (an operation added twice, one that started or finished, one that depends on itself)
    /// changes nothing and returns the error; ignore the result where that cannot happen.
    /// - Parameters:
    ///   - operation: The operation to run.
    ///   - dependencies: Operations (which must succeed) or edges such as `other.ignoringFailure`.
    ///   - categories: Exclusivity categories: operations sharing one never run at the same time.
    ///   - isolation: Where ``CallbackContext/caller`` callbacks run; the caller's actor.
    /// - Returns: Success, or why nothing was added.
    @discardableResult
    public func add(
        _ operation: some RunnableOperation, after dependencies: any OperationDependencyConvertible...,
        exclusiveIn categories: String..., isolation: isolated (any Actor)? = #isolation
    ) -> Result<Void, OperationRunnerError> {
        insert(operation.lifecycle, after: dependencies, exclusiveIn: categories, isolation: isolation)
    }

    /// Adds an operation with a list of dependencies; see ``add(_:after:exclusiveIn:isolation:)-(_,_,String...,_)``.
    @discardableResult
    public func add(
        _ operation: some RunnableOperation, after dependencies: [OperationDependency],
        exclusiveIn categories: [String] = [], isolation: isolated (any Actor)? = #isolation
    ) -> Result<Void, OperationRunnerError> {
        insert(operation.lifecycle, after: dependencies, exclusiveIn: categories, isolation: isolation)
    }

    /// Cancels every operation in the runner. Those waiting finish at once with
    /// ``OperationOutcome/cancelled``, in the order they were added; running ones finish when
    /// their work returns. Operations added afterwards run normally.
    public func cancelAll() {
        let operations = state.withLock { $0.members.all }
        var deliveries: [(operation: OperationLifecycle, isolation: (any Actor)?)] = []
        for operation in operations {
            if let isolation = operation.cancelLeavingDelivery() { deliveries.append((operation, isolation)) }
        }
        guard !deliveries.isEmpty else { return }
        Task { [deliveries] in
            // Runs of operations whose callbacks share an isolation are delivered with one hop.
            var start = 0
            while start < deliveries.count {
                let isolation = deliveries[start].isolation
                let actor = isolation.map(ObjectIdentifier.init)
                var end = start + 1
                while end < deliveries.count, deliveries[end].isolation.map(ObjectIdentifier.init) == actor { end += 1 }
                await Self.deliver(deliveries[start..<end].map(\.operation), isolation: isolation)
                start = end
            }
        }
    }

    private static func deliver(_ operations: [OperationLifecycle], isolation: isolated (any Actor)?) async {
        for operation in operations { await operation.deliverCancelled(isolation: isolation) }
    }

    /// Suspends until no operation is waiting or running (after the last finish callback ran).
    public func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.members.isEmpty { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Whether the runner holds back operations that are ready; running ones go on.
    public var isSuspended: Bool {
        get { state.withLock { $0.isSuspended } }
        set {
            let spawn = state.withLock { state -> Int in
                state.isSuspended = newValue
                return newValue ? 0 : claimWorkers(&state)
            }
            spawnWorkers(spawn)
        }
    }

    /// The number of operations waiting or running.
    public var count: Int { state.withLock { $0.members.count } }
}
