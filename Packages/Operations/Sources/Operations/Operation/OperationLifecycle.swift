/// An operation a runner can schedule: ``StatefulOperation`` and anything that wraps one.
///
/// The requirement is a handle on the operation's lifecycle; the runner does the rest.
public protocol RunnableOperation: AnyObject, Sendable, OperationDependencyConvertible {
    /// The state machine that tracks this operation from idle to finished.
    var lifecycle: OperationLifecycle { get }
}

/// What drives an operation's lifecycle: the typed half of ``StatefulOperation``.
protocol LifecycleDriver: AnyObject, Sendable {
    /// Runs start, work, return, success or fail, and finish. Called once, after `beginRun`.
    func drive(isolation: isolated (any Actor)?, turn: StartTurn?) async
    /// Runs the finish callbacks with `.cancelled` for an operation that never started.
    func deliverCancelled(isolation: isolated (any Actor)?) async
    /// Whether any start callback is registered (only those take part in FIFO start order).
    var hasStartCallbacks: Bool { get }
    /// Whether any callback asked for the caller's context.
    var usesCallerContext: Bool { get }
}

/// The untyped state machine of an operation: idle → (enqueued) → running → finished.
///
/// It decides, under one lock, whether a cancellation wins or the work's result does, so every
/// callback runs exactly once however many threads race to cancel.
public final class OperationLifecycle: Sendable {
    enum Phase {
        /// Not started and not owned by a runner.
        case idle
        /// Owned by a runner, waiting for it.
        case enqueued
        /// Its work may be running; cancellation still counts.
        case running
        /// Its work returned (or was skipped); the outcome is decided, callbacks may still run.
        case returned
        /// Every callback ran.
        case finished(FinishKind)
    }

    struct State {
        var phase = Phase.idle
        var isCancelled = false
        var task: TaskHandleBox?
        var observers: [@Sendable (FinishKind) -> Void] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// The actor that started the operation, kept only when a callback asked for the caller's context.
        var callerIsolation: (any Actor)?
        /// The typed operation; weak, because whoever runs the operation holds it.
        weak var driver: (any LifecycleDriver)?
        var latestProgress: ProgressReport?
        var progressObservers: [Int: AsyncStream<ProgressReport>.Continuation] = [:]
        var nextObserverID = 0
        var name: String?
    }

    let state = Locked(State())

    init() {}

    /// Whether ``StatefulOperation/cancel()`` was called before the operation's outcome was decided.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Whether every callback of the operation has run.
    public var isFinished: Bool {
        state.withLock {
            if case .finished = $0.phase { return true }
            return false
        }
    }

    /// Whether the operation is running: its work or its callbacks are under way.
    public var isExecuting: Bool {
        state.withLock {
            switch $0.phase {
            case .running, .returned: true
            default: false
            }
        }
    }

    /// The name given with ``StatefulOperation/named(_:)``, or a generated one; errors quote it.
    public var name: String {
        state.withLock { $0.name } ?? fallbackName
    }

    var fallbackName: String { "operation 0x" + String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16) }

    var finishKind: FinishKind? {
        state.withLock {
            if case .finished(let kind) = $0.phase { return kind }
            return nil
        }
    }

    /// Cancels the operation; see ``StatefulOperation/cancel()``.
    public func cancel() {
        if let deliver = cancelLeavingDelivery() {
            Task { await deliver() }
        }
    }

    /// Marks the operation cancelled. When it had not started, it returns the work of delivering
    /// its finish callbacks, for the caller to run (a runner batches them); otherwise nil.
    func cancelLeavingDelivery() -> (@Sendable () async -> Void)? {
        enum Action { case none, cancelTask(TaskHandleBox?), deliver((any Actor)?, (any LifecycleDriver)?) }
        let action = state.withLock { state -> Action in
            switch state.phase {
            case .returned, .finished: return .none
            case .running:
                if state.isCancelled { return .none }
                state.isCancelled = true
                return .cancelTask(state.task)
            case .idle, .enqueued:
                state.isCancelled = true
                state.phase = .returned
                return .deliver(state.callerIsolation, state.driver)
            }
        }
        switch action {
        case .none: return nil
        case .cancelTask(let task):
            task?.cancel(owner: ObjectIdentifier(self))
            return nil
        case .deliver(let isolation, let driver):
            guard let driver else { return { [self] in finish(.cancelled) } }
            return { await driver.deliverCancelled(isolation: isolation) }
        }
    }

    /// Moves an idle operation to running. False when it was started, enqueued, cancelled or finished.
    func beginStandalone(task: TaskHandleBox, isolation: (any Actor)?) -> Bool {
        state.withLock { state in
            guard case .idle = state.phase, !state.isCancelled else { return false }
            task.assign(ObjectIdentifier(self))
            state.phase = .running
            state.task = task
            state.callerIsolation = isolation
            return true
        }
    }

    /// Hands an idle operation to a runner. False when it was started, enqueued, cancelled or finished.
    func enqueue(isolation: (any Actor)?, observer: @escaping @Sendable (FinishKind) -> Void) -> Bool {
        state.withLock { state in
            guard case .idle = state.phase, !state.isCancelled else { return false }
            state.phase = .enqueued
            state.callerIsolation = isolation
            state.observers.append(observer)
            return true
        }
    }

    /// Moves an enqueued operation to running. False when it was cancelled meanwhile.
    func beginEnqueued(task: TaskHandleBox) -> (any Actor)?? {
        state.withLock { state in
            guard case .enqueued = state.phase, !state.isCancelled else { return nil }
            task.assign(ObjectIdentifier(self))
            state.phase = .running
            state.task = task
            return .some(state.callerIsolation)
        }
    }

    /// Calls `observer` once when the operation finishes, at once if it already has.
    func observeFinish(_ observer: @escaping @Sendable (FinishKind) -> Void) {
        let finished = state.withLock { state -> FinishKind? in
            if case .finished(let kind) = state.phase { return kind }
            state.observers.append(observer)
            return nil
        }
        if let finished { observer(finished) }
    }

    /// Decides the outcome when the work returns: true when a cancellation came first.
    func markReturned() -> Bool {
        state.withLock { state in
            state.phase = .returned
            state.task = nil
            return state.isCancelled
        }
    }

    /// Records the end, wakes whoever awaits the outcome, then tells observers (runners, dependents).
    func finish(_ kind: FinishKind) {
        let (waiters, observers, progress) = state.withLock { state in
            state.phase = .finished(kind)
            state.callerIsolation = nil
            defer {
                state.waiters = []
                state.observers = []
                state.progressObservers = [:]
            }
            return (state.waiters, state.observers, state.progressObservers)
        }
        for stream in progress.values { stream.finish() }
        for waiter in waiters { waiter.resume() }
        for observer in observers { observer(kind) }
    }

    /// Suspends until the operation finished.
    func waitUntilFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if case .finished = state.phase { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Whether nothing has started, enqueued or cancelled the operation yet.
    var isIdle: Bool {
        state.withLock {
            if case .idle = $0.phase { return !$0.isCancelled }
            return false
        }
    }
}
