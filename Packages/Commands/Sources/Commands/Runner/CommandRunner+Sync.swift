extension CommandRunner {
    /// Runs a sync command now and returns its result once the model has changed.
    ///
    /// If another thread is changing the model, this waits its turn. If the command throws,
    /// the model is untouched and the error is rethrown as is.
    ///
    /// - Throws: The command's error; ``CommandError/vetoed(command:middleware:reason:)``;
    ///   ``CommandError/saveFailed(command:underlying:)`` (the change stays);
    ///   ``CommandError/reentrantExecute(command:)`` when called from a change observer or a
    ///   command, where `run(_:completion:)` queues the command instead.
    @inlinable
    @discardableResult
    public func execute<C: Command>(_ command: C) throws -> C.Result where C.Model == Model {
        try store.performNow(C.commandName) { try apply(command) }
    }

    /// Queues a sync command and calls `completion` on the main actor with its result.
    ///
    /// Safe anywhere, including change observers: the command runs after the changes already
    /// queued (FIFO), never nested. When nothing else is running it runs before this returns.
    public func run<C: Command>(
        _ command: C, completion: @escaping @MainActor @Sendable (Swift.Result<C.Result, any Error>) -> Void
    ) where C.Model == Model {
        store.submit(C.commandName) {
            let result = Swift.Result { try self.apply(command) }
            Task { @MainActor in completion(result) }
        }
    }

    /// Queues a sync command and returns its result once it has run, without blocking a thread.
    @discardableResult
    public func run<C: Command>(_ command: C) async throws -> C.Result where C.Model == Model {
        try await store.perform(C.commandName) { Swift.Result { try self.apply(command) } }.get()
    }

    /// Applies `command` on the writer thread.
    @inlinable
    func apply<C: Command>(_ command: C) throws -> C.Result where C.Model == Model {
        let start = measuresTime ? ContinuousClock.now : nil
        let old = store.current
        if !middleware.isEmpty {
            do {
                try checkMiddleware(CommandInfo(command: command, isAsync: false), model: old)
            } catch {
                recordOutcome(
                    CommandInfo(command: command, isAsync: false), outcome: CommandOutcome(error), since: start)
                throw error
            }
        }
        var new = old
        let result: C.Result
        do {
            result = try command.execute(&new)
        } catch {
            recordOutcome(CommandInfo(command: command, isAsync: false), outcome: CommandOutcome(error), since: start)
            throw error
        }
        let observers = store.commit(new)
        if recordsUndo {
            history.record(old: old, name: command, behavior: command.undoBehavior, savesModel: command.savesModel)
        }
        let saveError = save(new, wanted: command.savesModel, name: C.commandName)
        recordOutcome(
            CommandInfo(command: command, isAsync: false), outcome: saveError.map(CommandOutcome.init) ?? .succeeded,
            since: start)
        store.notify(observers, of: ModelChange(command: command, old: old, new: new))
        if let saveError { throw saveError }
        return result
    }
}
