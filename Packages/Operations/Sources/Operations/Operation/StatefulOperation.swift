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
public final class StatefulOperation<Output: Sendable, Failure: Error>: OperationLifecycle, RunnableOperation,
    @unchecked Sendable
{
    // @unchecked Sendable: `work` and `callbacks` are guarded by the lifecycle's lock until the
    // operation is sealed (`State.isSealed`, set under that lock when it starts or its
    // cancellation is delivered); from then on only the task that sealed it touches them.
    // `payload` is written by that task before the lock records the finish, and read under
    // the lock after it.

    /// The work and the callbacks, as configured.
    @exclusivity(unchecked) var work: Work?
    @exclusivity(unchecked) var callbacks: Callbacks?
    /// The value or the error once finished, type-erased so that the unspecialised code that
    /// runs every operation needs no generic metadata; the finish kind says which.
    @exclusivity(unchecked) var payload: Any = ()

    /// Creates an operation from async work, with the callbacks of `base` registered first.
    /// - Parameters:
    ///   - base: Callbacks every operation of the app shares; ``OperationBase/shared`` by default.
    ///   - work: The work. A closure with typed throws makes `Failure` that type.
    public init(base: OperationBase = .shared, _ work: @escaping @Sendable () async throws(Failure) -> Output) {
        self.work = .plain(work)
        super.init()
        if !base.isEmpty { adopt(base) }
    }

    /// Creates an operation whose work reports progress, observable through ``progress``.
    /// - Parameters:
    ///   - base: Callbacks every operation of the app shares; ``OperationBase/shared`` by default.
    ///   - work: The work; it calls ``ProgressReporter/report(_:_:)`` as it goes.
    public init(
        base: OperationBase = .shared,
        reportingProgress work: @escaping @Sendable (ProgressReporter) async throws(Failure) -> Output
    ) {
        self.work = .reporting(work)
        super.init()
        if !base.isEmpty { adopt(base) }
    }

    private func adopt(_ base: OperationBase) {
        addCallbacks(runsOnCaller: base.usesCallerContext, startsPhase: !base.start.isEmpty) { $0 = Callbacks(base) }
    }

    /// The operation itself: it is its own lifecycle.
    public var lifecycle: OperationLifecycle { self }

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
        let box = TaskHandleBox(owner: ObjectIdentifier(self))
        guard let callerIsolation = beginStandalone(task: box, isolation: isolation) else { return false }
        box.set(Task { _ = await self.drive(isolation: callerIsolation, turn: nil) })
        return true
    }

    override func drive(isolation: (any Actor)?, turn: StartTurn?) async -> FinishKind {
        let (work, callbacks) = takeConfiguration()
        guard let work else {
            // Unreachable: an operation keeps its work until whoever sealed it takes it.
            turn?.pass()
            _ = markReturned()
            finish(.cancelled)
            return .cancelled
        }
        if let callbacks { return await run(work, callbacks, isolation: isolation, turn: turn) }
        // No callbacks: nothing to hop for, and one lock records the end. The operation began
        // just now under its lock, uncancelled; a cancellation since then cancelled this task.
        turn?.pass()
        if Task.isCancelled { return finishReturned(.cancelled) }
        do throws(Failure) {
            switch work {
            case .plain(let work): payload = try await work()
            case .reporting(let work): payload = try await work(ProgressReporter(self))
            }
            return finishReturned(.succeeded)
        } catch {
            if error is CancellationError { return finishReturned(.cancelled) }
            payload = error
            return finishReturned(.failed)
        }
    }

    override func deliverCancelled(isolation: isolated (any Actor)?) async {
        state.withLock { $0.isSealed = true }
        if let finish = takeConfiguration().1?.finish, !finish.isEmpty { await finish.run(with: .cancelled) }
        finishCancelled()
    }

    /// Names the operation, for error messages and debugging.
    @discardableResult
    public func named(_ name: String) -> Self {
        state.withLock { $0.name = name }
        return self
    }

    /// Waits for the operation to finish and returns how it ended; starts it first when nothing
    /// else did (an operation that belongs to a runner waits for the runner).
    public var outcome: OperationOutcome<Output, Failure> {
        get async {
            let startedHere = startIfIdle(isolation: nil)
            await withTaskCancellationHandler {
                await waitUntilFinished()
            } onCancel: {
                if startedHere { self.cancel() }
            }
            return finishedOutcome
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

    /// How the operation ended; `.cancelled` while it has not finished.
    var finishedOutcome: OperationOutcome<Output, Failure> {
        let (kind, payload) = state.withLock { ($0.finishKind, self.payload) }
        switch kind {
        case .succeeded?: if let value = payload as? Output { return .succeeded(value) }
        case .failed?: if let error = payload as? Failure { return .failed(error) }
        case .cancelled?, nil: break
        }
        return .cancelled
    }
}
