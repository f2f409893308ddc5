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
    ///
    /// For an `Equatable` model, a command that leaves the model equal to what it was makes no
    /// change: no undo step, no announcement to observers, no new version (it is journaled,
    /// and the save hook is still called when the command asks for a save). For other models,
    /// every successful command is a change, even one that changed nothing.
    @inlinable
    @discardableResult
    public func execute<C: Command>(_ command: C) throws -> C.Result where C.Model == Model {
        ReadScope.checkNotReading(C.commandName)
        guard store.beginWriting() else {
            return try store.performQueued(C.commandName) { try apply(command) }
        }
        guard middleware.isEmpty, saveHook == nil || !command.savesModel else {
            defer { store.drain() }
            return try apply(command)
        }
        return try applyDirectly(command)
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

    /// The fast path of ``execute(_:)``, on the writer, for a runner without middleware and a
    /// command that does not ask for a save: one critical section commits the model, records
    /// the undo step and the journal entry, and (when nobody observes and nothing is queued)
    /// gives up the writer role.
    @inlinable
    func applyDirectly<C: Command>(_ command: C) throws -> C.Result where C.Model == Model {
        let start = journals ? JournalClock.coarse() : 0
        func elapsed() -> UInt64 { journals ? JournalClock.coarse() &- start : 0 }
        let old = store.current
        var new = old
        let result: C.Result
        do {
            result = try command.execute(&new)
        } catch {
            let outcome = journals ? CommandOutcome(error) : .succeeded
            let nanoseconds = elapsed()
            store.endWriting {
                records.state.pointee.journal.record(command, outcome: outcome, nanoseconds: nanoseconds)
            }
            throw error
        }
        if let isUnchanged, isUnchanged(old, new) {
            let nanoseconds = elapsed()
            store.endWriting {
                records.state.pointee.journal.recordSuccess(command, nanoseconds: nanoseconds)
            }
            return result
        }
        let behavior = recordsUndo ? command.undoBehavior : .skip
        let savesModel = recordsUndo && command.savesModel
        let nanoseconds = elapsed()
        let observers = store.commitAndEnd(new) {
            records.state.pointee.history.record(
                old: old, command: type(of: command), behavior: behavior, savesModel: savesModel)
            records.state.pointee.journal.recordSuccess(command, nanoseconds: nanoseconds)
        }
        if let observers {
            store.notify(observers, of: ModelChange(command: command, old: old, new: new))
            store.drain()
        }
        return result
    }

    /// Applies `command` on the writer thread: the path with middleware and saves.
    @inlinable
    func apply<C: Command>(_ command: C) throws -> C.Result where C.Model == Model {
        let start = now()
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
        let savesModel = command.savesModel
        if let isUnchanged, isUnchanged(old, new) {
            let saveError = save(new, wanted: savesModel, name: C.commandName)
            recordOutcome(
                CommandInfo(command: command, isAsync: false),
                outcome: saveError.map(CommandOutcome.init) ?? .succeeded, since: start)
            if let saveError { throw saveError }
            return result
        }
        let behavior = recordsUndo ? command.undoBehavior : .skip
        let observers = store.commit(new) {
            records.state.pointee.history.record(
                old: old, command: type(of: command), behavior: behavior, savesModel: savesModel)
        }
        let saveError = save(new, wanted: savesModel, name: C.commandName)
        recordOutcome(
            CommandInfo(command: command, isAsync: false), outcome: saveError.map(CommandOutcome.init) ?? .succeeded,
            since: start)
        store.notify(observers, of: ModelChange(command: command, old: old, new: new))
        if let saveError { throw saveError }
        return result
    }
}
