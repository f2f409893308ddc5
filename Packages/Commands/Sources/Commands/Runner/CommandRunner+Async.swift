extension CommandRunner {
    /// Runs an async command and returns its result once its changes are applied.
    ///
    /// Its slow work runs concurrently with other commands; its staged changes are committed
    /// after those of every async command submitted before it.
    ///
    /// - Parameters:
    ///   - command: The command to run.
    ///   - id: An id to cancel it by with ``cancel(id:)``.
    ///   - cancelsPrevious: Whether to cancel running commands with the same `id` first
    ///     (search-as-you-type).
    /// - Throws: The command's error, ``CommandError/cancelled(command:)`` (also when the
    ///   calling task is cancelled), ``CommandError/vetoed(command:middleware:reason:)`` or
    ///   ``CommandError/saveFailed(command:underlying:)``. On any error but the last, the model
    ///   is untouched.
    @discardableResult
    public func run<C: AsyncCommand>(
        _ command: C, id: String? = nil, cancelsPrevious: Bool = false
    ) async throws
        -> C.Result where C.Model == Model
    {
        let (task, handle) = start(command, id: id, cancelsPrevious: cancelsPrevious)
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            handle.cancel()
        }
    }

    /// Runs an async command and calls `completion` on the main actor with its result.
    ///
    /// The command is submitted (and its place in the commit order taken) before this returns.
    public func run<C: AsyncCommand>(
        _ command: C, id: String? = nil, cancelsPrevious: Bool = false,
        completion: @escaping @MainActor @Sendable (Swift.Result<C.Result, any Error>) -> Void
    ) where C.Model == Model {
        let (task, _) = start(command, id: id, cancelsPrevious: cancelsPrevious)
        Task { @MainActor in completion(await task.result) }
    }

    /// Cancels the running async commands with `id`. Their changes are not applied.
    /// - Returns: How many commands were cancelled.
    @discardableResult
    public func cancel(id: String) -> Int {
        inFlight.cancel(id: id)
    }

    /// The ids of the async commands running now.
    public var runningIDs: Set<String> { inFlight.ids }

    /// Submits `command`: checks middleware, takes a commit ticket, starts its task.
    func start<C: AsyncCommand>(
        _ command: C, id: String?, cancelsPrevious: Bool
    )
        -> (Task<C.Result, any Error>, CancelHandle) where C.Model == Model
    {
        ReadScope.checkNotReading(C.commandName)
        let begin = measuresTime ? ContinuousClock.now : nil
        let info = CommandInfo(command: command, id: id, isAsync: true)
        let handle = CancelHandle()
        if !middleware.isEmpty {
            do {
                try checkMiddleware(info, model: store.model)
            } catch {
                recordOutcome(info, outcome: CommandOutcome(error), since: begin)
                return (Task { throw error }, handle)
            }
        }
        let ticket = sequencer.take()
        // A cancelled command never commits, so it gives up its place in line at once, even if
        // its slow part ignores cancellation.
        handle.whenCancelled { [sequencer] in sequencer.finish(ticket) }
        if let id {
            inFlight.register(id: id, ticket: ticket, cancelsPrevious: cancelsPrevious) { handle.cancel() }
        }
        let task = Task {
            defer {
                sequencer.finish(ticket)
                if let id { inFlight.unregister(id: id, ticket: ticket) }
            }
            do {
                let result = try await complete(command, ticket: ticket, handle: handle)
                recordOutcome(info, outcome: .succeeded, since: begin)
                return result
            } catch {
                let cancelled = error is CancellationError || (handle.isCancelled && !(error is CommandError))
                let error = cancelled ? CommandError.cancelled(command: C.commandName) : error
                recordOutcome(info, outcome: CommandOutcome(error), since: begin)
                throw error
            }
        }
        handle.attach { task.cancel() }
        return (task, handle)
    }

    /// Runs the command, waits for its turn, and commits its staged changes.
    private func complete<C: AsyncCommand>(
        _ command: C, ticket: UInt64, handle: CancelHandle
    ) async throws
        -> C.Result where C.Model == Model
    {
        let transaction = Transaction(store: store, name: C.commandName)
        let result: C.Result
        do {
            result = try await command.execute(CommandContext(transaction: transaction))
            try Task.checkCancellation()
            try await sequencer.waitForTurn(ticket)
        } catch {
            transaction.expire()
            throw error
        }
        let committed = await store.perform(C.commandName) { () -> Swift.Result<Void, any Error> in
            guard !handle.isCancelled else {
                transaction.expire()
                return .failure(CommandError.cancelled(command: C.commandName))
            }
            do {
                guard let new = try transaction.finish() else { return .success(()) }
                let old = self.store.current
                let observers = self.store.commit(new)
                self.history.record(
                    old: old, name: command, behavior: command.undoBehavior, savesModel: command.savesModel)
                let saveError = self.save(new, wanted: command.savesModel, name: C.commandName)
                self.store.notify(observers, of: ModelChange(command: command, old: old, new: new))
                return saveError.map { .failure($0) } ?? .success(())
            } catch {
                return .failure(error)
            }
        }
        try committed.get()
        return result
    }
}
