import Foundation

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
    /// One operation in the runner. Its mutable fields are guarded by the runner's lock.
    final class Node: @unchecked Sendable {
        let operation: any RunnableOperation
        let driver: any LifecycleDriver
        let sequence: Int
        /// Dependencies not yet finished.
        var waitingOn = 0
        /// Unfinished dependencies that belong to this runner, for cycle detection.
        var dependencies: Set<ObjectIdentifier> = []
        var isRunning = false
        var isFinished = false

        init(operation: any RunnableOperation, driver: any LifecycleDriver, sequence: Int) {
            self.operation = operation
            self.driver = driver
            self.sequence = sequence
        }
    }

    struct State {
        var nodes: [ObjectIdentifier: Node] = [:]
        /// Ready nodes in FIFO order; a slot is emptied when its node is taken.
        var ready: [Node?] = []
        var readyHead = 0
        var workers = 0
        var isSuspended = false
        var sequence = 0
        var lastInCategory: [String: ObjectIdentifier] = [:]
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
        add(operation, after: dependencies.map { $0.dependency }, exclusiveIn: categories, isolation: isolation)
    }

    /// Adds an operation with a list of dependencies; see ``add(_:after:exclusiveIn:isolation:)-(_,_,String...,_)``.
    @discardableResult
    public func add(
        _ operation: some RunnableOperation, after dependencies: [OperationDependency],
        exclusiveIn categories: [String] = [], isolation: isolated (any Actor)? = #isolation
    ) -> Result<Void, OperationRunnerError> {
        insert(operation, after: dependencies, exclusiveIn: categories, isolation: isolation)
    }

    /// Cancels every operation in the runner. Those waiting finish at once with
    /// ``OperationOutcome/cancelled``, in the order they were added; running ones finish when
    /// their work returns. Operations added afterwards run normally.
    public func cancelAll() {
        let operations = state.withLock { state in
            state.nodes.values.sorted { $0.sequence < $1.sequence }.map { $0.operation }
        }
        var deliveries: [@Sendable () async -> Void] = []
        for operation in operations {
            if let delivery = operation.lifecycle.cancelLeavingDelivery() { deliveries.append(delivery) }
        }
        guard !deliveries.isEmpty else { return }
        Task { [deliveries] in
            for delivery in deliveries { await delivery() }
        }
    }

    /// Suspends until no operation is waiting or running (after the last finish callback ran).
    public func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.nodes.isEmpty { return true }
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
    public var count: Int { state.withLock { $0.nodes.count } }
}
