extension StatefulOperation {
    /// The work, as given: plain work is stored as is, without a wrapping closure to allocate.
    enum Work: Sendable {
        case plain(@Sendable () async throws(Failure) -> Output)
        case reporting(@Sendable (ProgressReporter) async throws(Failure) -> Output)

        /// Runs the work, giving it `progress` if it reports any.
        func callAsFunction(_ progress: ProgressReporter) async throws(Failure) -> Output {
            switch self {
            case .plain(let work): try await work()
            case .reporting(let work): try await work(progress)
            }
        }
    }

    /// The callbacks of each phase, in the order they were added.
    struct Callbacks: Sendable {
        var start: [Callback<Void>] = []
        var returned: [Callback<Void>] = []
        var success: [Callback<Output>] = []
        var fail: [Callback<Failure>] = []
        var finish: [Callback<OperationOutcome<Output, Failure>>] = []

        init() {}

        /// The callbacks of `base`, adapted to this operation's types.
        init(_ base: OperationBase) {
            start = base.start
            returned = base.returned
            success = base.success.map { $0.pulledBack { $0 as any Sendable } }
            fail = base.fail.map { $0.pulledBack { $0 as any Error } }
            finish = base.finish.map { $0.pulledBack { $0.erased } }
        }

    }

    /// Changes the work while the operation has not started; ignored afterwards.
    @discardableResult
    func configureWork(_ change: (inout Work) -> Void) -> Self {
        state.withLock { state in
            guard !state.isSealed, var work else { return }
            self.work = nil
            change(&work)
            self.work = work
        }
        return self
    }

    /// Adds callbacks while the operation has not started; ignored afterwards.
    ///
    /// The flags the runner reads are updated from what the caller says it adds, not by
    /// scanning the lists: that would be unspecialised generic code, slow for what it does.
    /// - Parameters:
    ///   - runsOnCaller: Whether a callback added runs on ``CallbackContext/caller``.
    ///   - startsPhase: Whether a start callback is added.
    ///   - add: Appends the callbacks.
    @discardableResult
    func addCallbacks(runsOnCaller: Bool, startsPhase: Bool = false, _ add: (inout Callbacks) -> Void) -> Self {
        state.withLock { state in
            guard !state.isSealed else { return }
            // Taken out first, so that appending to a list does not copy it.
            var lists = callbacks ?? Callbacks()
            callbacks = nil
            add(&lists)
            callbacks = lists
            if runsOnCaller { state.usesCallerContext = true }
            if startsPhase { state.hasStartCallbacks = true }
        }
        return self
    }
}
