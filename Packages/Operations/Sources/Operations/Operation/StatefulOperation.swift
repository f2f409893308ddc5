/// A piece of async work with a lifecycle an app can hang its UI on.
///
/// The heir of Mold's `MDOperation`, without subclassing: wrap any async throwing closure,
/// attach callbacks, then ``start(isolation:)`` it, await its ``value``, or hand it to an
/// ``OperationRunner``.
///
/// ```swift
/// let op = StatefulOperation { try await validateLogin(email: email, password: password) }
///     .onStart { showSpinner() }
///     .onFail { error in show(error.userMessage) }
///     .onFinish { _ in hideSpinner() }
/// op.start()
/// ```
///
/// Each callback runs exactly once, in the order start → return → success | fail → finish.
/// A cancelled operation skips success and fail but still finishes, with
/// ``OperationOutcome/cancelled``, and only after its work returned. Configure an operation
/// before it starts: callbacks and modifiers added later are ignored.
public final class StatefulOperation<Output: Sendable, Failure: Error>: RunnableOperation, LifecycleDriver {
    /// The work, given a reporter for progress.
    typealias Work = @Sendable (ProgressReporter) async throws(Failure) -> Output

    /// Everything set before the operation starts; taken out, whole, when it does.
    struct Configuration: Sendable {
        var work: Work
        var start: [Callback<Void>] = []
        var returned: [Callback<Void>] = []
        var success: [Callback<Output>] = []
        var fail: [Callback<Failure>] = []
        var finish: [Callback<OperationOutcome<Output, Failure>>] = []

        var usesCallerContext: Bool {
            start.contains { $0.runsOnCaller } || returned.contains { $0.runsOnCaller }
                || success.contains { $0.runsOnCaller } || fail.contains { $0.runsOnCaller }
                || finish.contains { $0.runsOnCaller }
        }
    }

    struct State: Sendable {
        /// Nil once the operation started (or was cancelled before it could).
        var configuration: Configuration?
        var outcome: OperationOutcome<Output, Failure>?
        /// Kept beside the configuration so the hot path reads a flag, not the callback lists.
        var usesCallerContext = false
        var hasStartCallbacks = false
    }

    /// The state machine the runner and the callbacks share.
    public let lifecycle = OperationLifecycle()
    let state: Locked<State>

    /// Creates an operation from async work, with the callbacks of `base` registered first.
    /// - Parameters:
    ///   - base: Callbacks every operation of the app shares; ``OperationBase/shared`` by default.
    ///   - work: The work. A closure with typed throws makes `Failure` that type.
    public init(base: OperationBase = .shared, _ work: @escaping @Sendable () async throws(Failure) -> Output) {
        let wrapped: Work = { (_: ProgressReporter) async throws(Failure) -> Output in try await work() }
        state = Locked(State(configuration: Self.configuration(work: wrapped, base: base)))
        if !base.isEmpty { configure { _ in } }
        lifecycle.state.withLock { $0.driver = self }
    }

    /// Creates an operation whose work reports progress, observable through ``progress``.
    /// - Parameters:
    ///   - base: Callbacks every operation of the app shares; ``OperationBase/shared`` by default.
    ///   - work: The work; it calls ``ProgressReporter/report(_:_:)`` as it goes.
    public init(
        base: OperationBase = .shared,
        reportingProgress work: @escaping @Sendable (ProgressReporter) async throws(Failure) -> Output
    ) {
        state = Locked(State(configuration: Self.configuration(work: work, base: base)))
        if !base.isEmpty { configure { _ in } }
        lifecycle.state.withLock { $0.driver = self }
    }

    private static func configuration(work: @escaping Work, base: OperationBase) -> Configuration {
        var configuration = Configuration(work: work)
        guard !base.isEmpty else { return configuration }
        configuration.start = base.start
        configuration.returned = base.returned
        configuration.success = base.success.map { $0.pulledBack { $0 as any Sendable } }
        configuration.fail = base.fail.map { $0.pulledBack { $0 as any Error } }
        configuration.finish = base.finish.map { $0.pulledBack { $0.erased } }
        return configuration
    }

    /// Starts the operation on a task of its own and returns at once: fire and forget.
    ///
    /// Starting an operation that already started, finished, was cancelled or belongs to a
    /// runner does nothing.
    /// - Parameter isolation: Where ``CallbackContext/caller`` callbacks run; the caller's actor.
    public func start(isolation: isolated (any Actor)? = #isolation) {
        startIfIdle(isolation: isolation)
    }

    @discardableResult
    func startIfIdle(isolation: (any Actor)?) -> Bool {
        let box = TaskHandleBox()
        let callerIsolation = usesCallerContext ? isolation : nil
        guard lifecycle.beginStandalone(task: box, isolation: callerIsolation) else { return false }
        box.set(Task { await self.drive(isolation: callerIsolation, turn: nil) })
        return true
    }

    /// Names the operation, for error messages and debugging.
    @discardableResult
    public func named(_ name: String) -> Self {
        lifecycle.state.withLock { $0.name = name }
        return self
    }

    /// Cancels the operation.
    ///
    /// Running work sees Swift task cancellation; the operation finishes with
    /// ``OperationOutcome/cancelled`` once the work returns, skipping success and fail. An
    /// operation that has not started finishes at once, calling only its finish callbacks.
    /// Cancelling a finished operation, or one whose work already returned, does nothing.
    public func cancel() {
        lifecycle.cancel()
    }

    /// Whether ``cancel()`` was called before the outcome was decided.
    public var isCancelled: Bool { lifecycle.isCancelled }

    /// Whether every callback has run.
    public var isFinished: Bool { lifecycle.isFinished }

    /// Waits for the operation to finish and returns how it ended; starts it first when nothing
    /// else did (an operation that belongs to a runner waits for the runner).
    public var outcome: OperationOutcome<Output, Failure> {
        get async {
            let startedHere = startIfIdle(isolation: nil)
            await withTaskCancellationHandler {
                await lifecycle.waitUntilFinished()
            } onCancel: {
                if startedHere { self.cancel() }
            }
            return state.withLock { $0.outcome } ?? .cancelled
        }
    }

    /// Waits for the operation's value; starts it first when nothing else did.
    /// - Throws: The work's error, or `CancellationError` when the operation was cancelled.
    public var value: Output {
        get async throws {
            switch await outcome {
            case .succeeded(let value): return value
            case .failed(let error): throw error
            case .cancelled: throw CancellationError()
            }
        }
    }

    /// Changes the configuration while the operation has not started; ignored afterwards.
    @discardableResult
    func configure(_ change: (inout Configuration) -> Void) -> Self {
        state.withLock { state in
            guard var configuration = state.configuration else { return }
            change(&configuration)
            state.usesCallerContext = configuration.usesCallerContext
            state.hasStartCallbacks = !configuration.start.isEmpty
            state.configuration = configuration
        }
        return self
    }

    var usesCallerContext: Bool {
        state.withLock { $0.usesCallerContext }
    }

    var hasStartCallbacks: Bool {
        state.withLock { $0.hasStartCallbacks }
    }
}
