import _KitSupport

/// An operation a runner can schedule: ``StatefulOperation`` and anything that wraps one.
///
/// The requirement is a handle on the operation's lifecycle; the runner does the rest.
public protocol RunnableOperation: AnyObject, Sendable, OperationDependencyConvertible {
    /// The state machine that tracks this operation from idle to finished.
    var lifecycle: OperationLifecycle { get }
}

/// The untyped state machine of an operation: idle → (enqueued) → running → finished.
///
/// It decides, under one lock, whether a cancellation wins or the work's result does, so every
/// callback runs exactly once however many threads race to cancel. ``StatefulOperation`` is its
/// typed subclass, so that an operation is one object with one lock.
public class OperationLifecycle: @unchecked Sendable {
    // @unchecked Sendable: `state` is a lock and guards itself; `entry` is guarded by the lock
    // of the runner that owns the operation (`State.runner`); subclasses document their fields.

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
        /// Whether whoever runs the operation took its configuration (it started, or its
        /// cancellation is being delivered): configuring it is ignored from then on.
        var isSealed = false
        /// Kept beside the configuration so the hot path reads a flag, not the callback lists.
        var hasStartCallbacks = false
        var usesCallerContext = false
        var task: TaskHandleBox?
        /// The runner that owns the operation, from when it was added until it finishes.
        var runner: OperationRunner?
        var observers: [@Sendable (FinishKind) -> Void] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// The actor that started the operation, kept only when a callback asked for the caller's context.
        var callerIsolation: (any Actor)?
        var latestProgress: ProgressReport?
        var progressObservers = [Int: AsyncStream<ProgressReport>.Continuation]()
        var nextObserverID = 0
        var name: String?

        var finishKind: FinishKind? {
            if case .finished(let kind) = phase { return kind }
            return nil
        }
    }

    let state = Locked(State())
    /// The owning runner's bookkeeping; read and written only under that runner's lock.
    @exclusivity(unchecked) var entry = RunnerEntry()

    init() {}

    /// Whether ``cancel()`` was called before the operation's outcome was decided.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Whether every callback of the operation has run.
    public var isFinished: Bool { state.withLock { $0.finishKind != nil } }

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

    var finishKind: FinishKind? { state.withLock { $0.finishKind } }

    /// Cancels the operation.
    ///
    /// Running work sees Swift task cancellation; the operation finishes with
    /// ``OperationOutcome/cancelled`` once the work returns, skipping success and fail. An
    /// operation that has not started finishes at once, calling only its finish callbacks.
    /// Cancelling a finished operation, or one whose work already returned, does nothing.
    public func cancel() {
        if let isolation = cancelLeavingDelivery() {
            Task { await self.deliverCancelled(isolation: isolation) }
        }
    }

    /// Whether nothing has started, enqueued or cancelled the operation yet.
    var isIdle: Bool {
        state.withLock {
            if case .idle = $0.phase { return !$0.isCancelled }
            return false
        }
    }

    // MARK: Driving, overridden by the typed operation

    /// Runs start, work, return, success or fail, and finish, then returns how it ended. Called
    /// once, after `beginStandalone` or `beginEnqueued` succeeded; the caller tells the runner.
    ///
    /// Not isolated: an operation without callbacks runs where it is called, with no hop;
    /// callbacks run on `isolation` (where caller-context callbacks run) or the main actor.
    func drive(isolation: (any Actor)?, turn: StartTurn?) async -> FinishKind {
        turn?.pass()
        let kind = markReturned() ? FinishKind.cancelled : .succeeded
        finish(kind)
        return kind
    }

    /// Runs the finish callbacks with `.cancelled` for an operation that never started, and
    /// tells its runner. Called once, by whoever got an isolation from `cancelLeavingDelivery()`,
    /// with that isolation.
    func deliverCancelled(isolation: isolated (any Actor)?) async {
        finishCancelled()
    }
}
