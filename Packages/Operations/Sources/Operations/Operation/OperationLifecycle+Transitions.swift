extension OperationLifecycle {
    /// Marks the operation cancelled. When it had not started, returns where its finish
    /// callbacks run, and the caller must then call `deliverCancelled(isolation:)` there (a
    /// runner batches those); otherwise nil, and a running operation's task is cancelled.
    func cancelLeavingDelivery() -> (any Actor)?? {
        enum Action { case none, cancelTask(TaskHandleBox?), deliver((any Actor)?) }
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
                return .deliver(state.callerIsolation)
            }
        }
        switch action {
        case .none: return nil
        case .cancelTask(let task):
            task?.cancel(owner: ObjectIdentifier(self))
            return nil
        case .deliver(let isolation): return .some(isolation)
        }
    }

    /// Moves an idle operation to running on `task`, sealing its configuration. Returns where
    /// caller-context callbacks run (nil for nowhere in particular), or nil when it was started,
    /// enqueued, cancelled or finished.
    func beginStandalone(task: TaskHandleBox, isolation: (any Actor)?) -> (any Actor)?? {
        state.withLock { state in
            guard case .idle = state.phase, !state.isCancelled else { return nil }
            state.phase = .running
            state.isSealed = true
            state.task = task
            state.callerIsolation = state.usesCallerContext ? isolation : nil
            return .some(state.callerIsolation)
        }
    }

    /// Hands an idle operation to `runner`, or says why not. An operation that depends on
    /// itself is refused as a cycle, but only once the other checks passed.
    func enqueue(
        into runner: OperationRunner, isolation: (any Actor)?, dependsOnItself: Bool = false
    ) -> OperationRunnerError? {
        state.withLock { state in
            if state.runner === runner { return .alreadyAdded(operation: state.name ?? fallbackName) }
            switch state.phase {
            case .idle where !state.isCancelled: break
            case .idle, .returned, .finished: return .alreadyFinished(operation: state.name ?? fallbackName)
            case .enqueued, .running: return .alreadyStarted(operation: state.name ?? fallbackName)
            }
            if dependsOnItself {
                let name = state.name ?? fallbackName
                return .dependencyCycle(path: [name, name])
            }
            state.phase = .enqueued
            state.runner = runner
            state.callerIsolation = state.usesCallerContext ? isolation : nil
            return nil
        }
    }

    /// Moves an enqueued operation to running on `task`, sealing its configuration. Returns
    /// where caller-context callbacks run and whether it has start callbacks; nil when it was
    /// cancelled meanwhile.
    func beginEnqueued(task: TaskHandleBox) -> (isolation: (any Actor)?, hasStartCallbacks: Bool)? {
        state.withLock { state in
            guard case .enqueued = state.phase, !state.isCancelled else { return nil }
            state.phase = .running
            state.isSealed = true
            state.task = task
            return (state.callerIsolation, state.hasStartCallbacks)
        }
    }

    /// Whether `runner` owns the operation: it was added there and has not finished.
    func isOwned(by runner: OperationRunner) -> Bool {
        state.withLock { $0.runner === runner }
    }

    /// How an operation stands towards a runner that wants to wait for it.
    enum Claim {
        /// The runner owns it: added there and not finished.
        case owned
        /// Nobody had started it, so the runner took it, without a caller context.
        case adopted
        /// It runs or ran elsewhere, or finished: wait for it from the outside.
        case elsewhere
    }

    /// Tells whether `runner` owns the operation, handing it to `runner` if nobody started it.
    func claim(for runner: OperationRunner) -> Claim {
        state.withLock { state in
            if state.runner === runner { return .owned }
            guard case .idle = state.phase, !state.isCancelled else { return .elsewhere }
            state.phase = .enqueued
            state.runner = runner
            return .adopted
        }
    }

    /// Calls `observer` once when the operation finishes, at once if it already has.
    func observeFinish(_ observer: @escaping @Sendable (FinishKind) -> Void) {
        let finished = state.withLock { state -> FinishKind? in
            if let kind = state.finishKind { return kind }
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

    /// Records the end, wakes whoever awaits the outcome, then tells observers (dependents in
    /// other runners, chains). Returns the runner that owned the operation, for the caller to tell.
    @discardableResult
    func finish(_ kind: FinishKind) -> OperationRunner? {
        settle(kind, unlessCancelled: false).runner
    }

    /// Decides the outcome and records the end in one step, for work that returned with no
    /// callbacks left to run: `kind`, unless a cancellation came first.
    func finishReturned(_ kind: FinishKind) -> FinishKind {
        settle(kind, unlessCancelled: true).kind
    }

    /// Finishes an operation whose cancellation was delivered, and tells its runner.
    func finishCancelled() {
        finish(.cancelled)?.remove(self, finished: .cancelled)
    }

    private func settle(_ kind: FinishKind, unlessCancelled: Bool) -> (kind: FinishKind, runner: OperationRunner?) {
        var waiters: [CheckedContinuation<Void, Never>] = []
        var observers: [@Sendable (FinishKind) -> Void] = []
        var progress: [Int: AsyncStream<ProgressReport>.Continuation] = [:]
        let (kind, runner) = state.withLock { state -> (FinishKind, OperationRunner?) in
            let kind = unlessCancelled && state.isCancelled ? FinishKind.cancelled : kind
            state.phase = .finished(kind)
            state.task = nil
            state.callerIsolation = nil
            swap(&waiters, &state.waiters)
            swap(&observers, &state.observers)
            if !state.progressObservers.isEmpty { swap(&progress, &state.progressObservers) }
            defer { state.runner = nil }
            return (kind, state.runner)
        }
        for stream in progress.values { stream.finish() }
        for waiter in waiters { waiter.resume() }
        for observer in observers { observer(kind) }
        return (kind, runner)
    }

    /// Suspends until the operation finished.
    func waitUntilFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.finishKind != nil { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
