extension CommandRunner {
    /// Runs an async command and returns its result once its changes are applied (and, with a
    /// save step, saved).
    ///
    /// Its slow work runs concurrently with other commands; its staged changes are committed
    /// after those of every async command submitted before it.
    ///
    /// Awaited from inside another async command's `execute` on the same runner, it runs as that
    /// command's guest: it commits as soon as the outer command's turn has come (ahead of the
    /// outer command, which is still running, and of commands submitted after it) instead of
    /// waiting for the outer command to finish, which would never happen. Its change is its
    /// own: it stays if the outer command later fails, and the outer command's staged changes
    /// are applied on top of it. To make a child part of the outer command's all-or-nothing
    /// change instead, use ``CommandContext/run(_:)``.
    ///
    /// - Parameters:
    ///   - command: The command to run.
    ///   - id: An id to cancel it by with ``cancel(id:)``.
    ///   - cancelsPrevious: Whether to cancel running commands with the same `id` first
    ///     (search-as-you-type).
    /// - Throws: The command's error, ``CommandError/cancelled(command:)`` (also when the
    ///   calling task is cancelled), ``CommandError/vetoed(command:middleware:reason:)``,
    ///   ``CommandError/saveFailed(command:underlying:)`` (the change was rolled back) or
    ///   ``CommandError/foreignStore(command:)``. On any error, the model is as it was.
    @discardableResult
    public func run<C: AsyncCommand>(
        _ command: C, id: String? = nil, cancelsPrevious: Bool = false
    ) async throws
        -> C.Result where C.Model == Model
    {
        let handle = CancelHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                start(command, id: id, cancelsPrevious: cancelsPrevious, handle: handle) {
                    continuation.resume(with: $0)
                }
            }
        } onCancel: {
            handle.cancel()
        }
    }

    /// Runs an async command and calls `completion` on the main actor with its result.
    ///
    /// The command is submitted (and its place in the commit order taken) before this returns.
    /// From inside another async command's `execute` on the same runner, it commits as that
    /// command's guest, as ``run(_:id:cancelsPrevious:)`` explains.
    public func run<C: AsyncCommand>(
        _ command: C, id: String? = nil, cancelsPrevious: Bool = false,
        completion: @escaping @MainActor @Sendable (Swift.Result<C.Result, any Error>) -> Void
    ) where C.Model == Model {
        start(command, id: id, cancelsPrevious: cancelsPrevious, handle: CancelHandle()) { result in
            Task { @MainActor in completion(result) }
        }
    }

    /// Cancels the running async commands with `id`. Their changes are not applied, and their
    /// callers get ``CommandError/cancelled(command:)`` at once, even when a command's slow part
    /// ignores cancellation (it goes on in the background, but never commits).
    /// - Returns: How many commands were cancelled.
    @discardableResult
    public func cancel(id: String) -> Int {
        inFlight.cancel(id: id)
    }

    /// The ids of the async commands running now.
    public var runningIDs: Set<String> { inFlight.ids }

    /// Submits `command`: checks middleware, takes a commit ticket, starts its task, and calls
    /// `deliver` once with its result (or with ``CommandError/cancelled(command:)`` as soon as
    /// it is cancelled).
    func start<C: AsyncCommand>(
        _ command: C, id: String?, cancelsPrevious: Bool, handle: CancelHandle,
        deliver receiver: @escaping Settled<C.Result>
    ) where C.Model == Model {
        ReadScope.checkNotReading(C.commandName)
        let begin = now()
        let info = CommandInfo(command: command, id: id, isAsync: true)
        let deliver = Delivery(receiver)
        guard ownsStore else {
            deliver(.failure(CommandError.foreignStore(command: C.commandName)))
            return
        }
        if !middleware.isEmpty {
            do {
                try checkMiddleware(info, model: store.model)
            } catch {
                recordOutcome(info, outcome: CommandOutcome(error), since: begin)
                deliver(.failure(error))
                return
            }
        }
        let ticket = sequencer.take()
        let hosts = sequencer.currentHosts
        // A cancelled command never commits, so it gives up its place in line at once, and its
        // caller hears of it at once, even if its slow part ignores cancellation.
        handle.whenCancelled { [sequencer] in
            sequencer.finish(ticket)
            deliver(.failure(CommandError.cancelled(command: C.commandName)))
        }
        if let id {
            inFlight.register(id: id, ticket: ticket, cancelsPrevious: cancelsPrevious) { handle.cancel() }
        }
        let task = Task {
            defer {
                sequencer.finish(ticket)
                if let id { inFlight.unregister(id: id, ticket: ticket) }
            }
            let transaction = Transaction(store: store, name: C.commandName)
            let result: C.Result
            do {
                result = try await sequencer.runAsHost(ticket, inside: hosts) {
                    try await command.execute(CommandContext(transaction: transaction))
                }
                try Task.checkCancellation()
                try await sequencer.waitForTurn(ticket, hosts: hosts)
            } catch {
                transaction.expire()
                let cancelled = error is CancellationError || (handle.isCancelled && !(error is CommandError))
                let error = cancelled ? CommandError.cancelled(command: C.commandName) : error
                recordOutcome(info, outcome: CommandOutcome(error), since: begin)
                deliver(.failure(error))
                return
            }
            // The next async command's turn comes as soon as this one's change is on the head
            // (it builds on it), not when it is saved: a group of them is saved in one write.
            do {
                let committed = try await perform(C.commandName) { (finish: @escaping Settled<C.Result>) in
                    self.commit(
                        command, result: result, info: info, transaction: transaction, handle: handle, since: begin,
                        finish: finish)
                    self.sequencer.finish(ticket)
                }
                deliver(.success(committed))
            } catch {
                deliver(.failure(error))
            }
        }
        handle.attach { task.cancel() }
    }

    /// On the writer: hands the staged changes to the commit step (rebased on the head if it
    /// moved since they were staged), unless the command was cancelled first.
    private func commit<C: AsyncCommand>(
        _ command: C, result: C.Result, info: CommandInfo, transaction: Transaction<Model>, handle: CancelHandle,
        since begin: UInt64, finish: @escaping Settled<C.Result>
    ) where C.Model == Model {
        guard handle.beginCommit() else {
            transaction.expire()
            settle(failed(CommandError.cancelled(command: C.commandName), info: info, since: begin, finish: finish))
            return
        }
        let head = store.current
        let new: Model?
        do {
            new = try transaction.finish()
        } catch {
            settle(failed(error, info: info, since: begin, finish: finish))
            return
        }
        let settlement = succeeded(result, info: info, since: begin, finish: finish)
        guard let new, isUnchanged?(head, new) != true else {
            settle(settlement)
            return
        }
        let behavior = recordsUndo ? command.undoBehavior : .skip
        commit(saves: !(command is any TransientCommand), settlement) { history, head in
            history.record(old: head, command: C.self, behavior: behavior)
            return new
        } change: { old, new in
            ModelChange(command: command, old: old, new: new)
        }
    }
}
