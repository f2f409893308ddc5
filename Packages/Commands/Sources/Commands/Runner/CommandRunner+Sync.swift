import _KitSupport

extension CommandRunner {
    /// Runs a sync command now and returns its result once the change is committed (and, with a
    /// save step, saved).
    ///
    /// If another thread is changing the model, this waits its turn. If the command throws,
    /// the model is untouched and the error is rethrown as is.
    ///
    /// - Throws: The command's error; ``CommandError/vetoed(command:middleware:reason:)``;
    ///   ``CommandError/saveFailed(command:underlying:)`` (the change was rolled back);
    ///   ``CommandError/reentrantExecute(command:)`` when called from a change observer or a
    ///   command, where `run(_:completion:)` queues the command instead;
    ///   ``CommandError/asyncSaveNeedsAwait(command:)`` on a runner with an async save step;
    ///   ``CommandError/foreignStore(command:)`` when the store belongs to another runner.
    ///
    /// For an `Equatable` model, a command that leaves the model equal to what it was makes no
    /// change: no undo step, no save, no announcement to observers, no new version (it is
    /// journaled). For other models, every successful command is a change, even one that
    /// changed nothing.
    @inlinable
    @discardableResult
    public func execute<C: Command>(_ command: C) throws -> C.Result where C.Model == Model {
        ReadScope.checkNotReading(C.commandName)
        guard isLean else { return try executeCommitting(command) }
        guard store.beginWriting() else {
            return try performBlocking(C.commandName) { finish in self.apply(command, finish: finish) }
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
        guard ownsStore else {
            let error = CommandError.foreignStore(command: C.commandName)
            Task { @MainActor in completion(.failure(error)) }
            return
        }
        submit(C.commandName) {
            self.apply(command) { result in Task { @MainActor in completion(result) } }
        }
    }

    /// Queues a sync command and returns its result once it has run (and, with a save step,
    /// been saved), without blocking a thread.
    @discardableResult
    public func run<C: Command>(_ command: C) async throws -> C.Result where C.Model == Model {
        guard ownsStore else { throw CommandError.foreignStore(command: C.commandName) }
        return try await perform(C.commandName) { finish in self.apply(command, finish: finish) }
    }

    /// ``execute(_:)`` for a runner with a save step or middleware: the commit step with
    /// everything, on this thread when the queue is idle.
    @usableFromInline
    func executeCommitting<C: Command>(_ command: C) throws -> C.Result where C.Model == Model {
        guard ownsStore else { throw CommandError.foreignStore(command: C.commandName) }
        if saveStep?.isAsync == true { throw CommandError.asyncSaveNeedsAwait(command: C.commandName) }
        return try performBlocking(C.commandName) { finish in self.apply(command, finish: finish) }
    }

    /// The fast path of ``execute(_:)``, on the writer, for a runner without a save step or
    /// middleware: the commit step in one critical section, which commits the model, records
    /// the undo step and the journal entry, and (when nobody observes and nothing is queued)
    /// gives up the writer role. Nothing can fail after the command ran, so nothing waits.
    ///
    /// The head is copied once, for the command to change; the head it replaces is moved into
    /// the undo history, not copied (only observers, who get both, cost two more copies).
    @inlinable
    func applyDirectly<C: Command>(_ command: C) throws -> C.Result where C.Model == Model {
        let start = journals ? JournalClock.coarse() : 0
        func elapsed() -> UInt64 { journals ? JournalClock.coarse() &- start : 0 }
        // Only the writer changes the head, so it reads it without the lock.
        var new = store.current
        let result: C.Result
        do {
            result = try command.execute(&new)
        } catch {
            let outcome = journals ? CommandOutcome(error) : .succeeded
            let nanoseconds = elapsed()
            let released = store.endWriting {
                if journals {
                    records.state.pointee.journal.record(command, outcome: outcome, nanoseconds: nanoseconds)
                }
            }
            if !released { drain() }
            throw error
        }
        if let isUnchanged, isUnchanged(store.current, new) {
            let nanoseconds = elapsed()
            let released = store.endWriting {
                if journals { records.state.pointee.journal.recordSuccess(command, nanoseconds: nanoseconds) }
            }
            if !released { drain() }
            return result
        }
        let nanoseconds = elapsed()
        // One reference for the whole commit: each access through `self` would retain it.
        let store = store
        store.lock.lock()
        swap(&store.storage.pointee.current, &new)
        // `new` now holds the head it replaced.
        store.version &+= 1
        if journals { records.state.pointee.journal.recordSuccess(command, nanoseconds: nanoseconds) }
        guard !store.observers.isEmpty else {
            if recordsUndo {
                records.state.pointee.history.record(old: consume new, command: C.self, behavior: command.undoBehavior)
            }
            let released = store.releaseWriterIfIdle()
            store.lock.unlock()
            if !released { drain() }
            return result
        }
        let change = ModelChange(command: command, old: new, new: store.current)
        if recordsUndo {
            records.state.pointee.history.record(old: consume new, command: C.self, behavior: command.undoBehavior)
        }
        let observers = store.observers
        store.lock.unlock()
        store.notify(observers, of: change)
        // Give the writer role up here unless an observer queued a command (drain runs it):
        // drain is not specialised for the model, and this runner never has a group to save.
        store.lock.lock()
        let released = store.releaseWriterIfIdle()
        store.lock.unlock()
        if !released { drain() }
        return result
    }

    /// Runs `command` on the writer and hands its change to the commit step; `finish` gets the
    /// outcome once it is settled (saved or rolled back, when the runner saves).
    @usableFromInline
    func apply<C: Command>(_ command: C, finish: @escaping Settled<C.Result>) where C.Model == Model {
        let start = now()
        let info = CommandInfo(command: command, isAsync: false)
        let head = store.current
        var new = head
        let result: C.Result
        do {
            if !middleware.isEmpty { try checkMiddleware(info, model: head) }
            result = try command.execute(&new)
        } catch {
            settle(failed(error, info: info, since: start, finish: finish))
            return
        }
        let settlement = succeeded(result, info: info, since: start, finish: finish)
        if let isUnchanged, isUnchanged(head, new) {
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

    /// How to settle a job that worked: journal and tell middleware, then hand `result` to the
    /// caller, or, if its change was rolled back, the save's error.
    func succeeded<T: Sendable>(
        _ result: T, info: CommandInfo, since start: UInt64, finish: @escaping Settled<T>
    ) -> Settlement<Model> {
        Settlement { saveError in
            let failure = saveError.map { CommandError.saveFailed(command: info.name, underlying: $0) }
            self.recordOutcome(
                info, outcome: failure.map(CommandOutcome.init) ?? .succeeded, journals: failure == nil, since: start)
        } deliver: { saveError in
            finish(
                saveError.map { .failure(CommandError.saveFailed(command: info.name, underlying: $0)) }
                    ?? .success(result))
        }
    }

    /// How to settle a job that failed on its own: its failure stands whatever happens to the
    /// changes it ran on.
    func failed<T: Sendable>(
        _ error: any Error, info: CommandInfo, since start: UInt64, finish: @escaping Settled<T>
    ) -> Settlement<Model> {
        Settlement { _ in
            self.recordOutcome(info, outcome: CommandOutcome(error), since: start)
        } deliver: { _ in
            finish(.failure(error))
        }
    }
}
