extension CommandRunner {
    /// Whether there is a step to undo.
    public var canUndo: Bool { records.withLock { $0.history.canUndo } }

    /// Whether there is a step to redo.
    public var canRedo: Bool { records.withLock { !$0.history.future.isEmpty } }

    /// The name of the step ``undo()`` would undo: a command's name or a group's.
    public var undoName: String? { records.withLock { $0.history.undoLabel }?.name }

    /// The name of the step ``redo()`` would redo.
    public var redoName: String? { records.withLock { $0.history.future.last?.label }?.name }

    /// Restores the model as it was before the latest undo step.
    ///
    /// Undo is a change like any other: it waits its turn, is announced to observers (with an
    /// ``UndoStep`` as its command), journaled, and saved if the undone step was.
    /// - Throws: ``CommandError/nothingToUndo`` when the history is empty (the model is
    ///   untouched), or ``CommandError/saveFailed(command:underlying:)``.
    @inlinable
    public func undo() async throws {
        try await step(isUndo: true)
    }

    /// Restores the model as it was before the latest ``undo()``.
    /// - Throws: ``CommandError/nothingToRedo`` when nothing was undone since the last
    ///   recorded change, or ``CommandError/saveFailed(command:underlying:)``.
    @inlinable
    public func redo() async throws {
        try await step(isUndo: false)
    }

    /// Opens an undo group: every change until the matching ``endUndoGroup()`` becomes one step.
    /// Groups nest; the outermost one names the step.
    public func beginUndoGroup(_ name: String) {
        records.withLock { $0.history.beginGroup(name) }
    }

    /// Closes the innermost undo group.
    public func endUndoGroup() {
        records.withLock { $0.history.endGroup() }
    }

    /// Runs `body` inside an undo group named `name`, so its commands undo as one step.
    public func withUndoGroup<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        records.withLock { $0.history.beginGroup(name) }
        defer { records.withLock { $0.history.endGroup() } }
        return try body()
    }

    /// Runs async `body` inside an undo group named `name`.
    public func withUndoGroup<T>(
        _ name: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        records.withLock { $0.history.beginGroup(name) }
        defer { records.withLock { $0.history.endGroup() } }
        return try await body()
    }

    /// Undoes or redoes one step. Taking the step from the history and restoring its snapshot
    /// is one critical section; the step's name is only worked out when someone needs it (an
    /// observer, a failed save).
    @inlinable
    func step(isUndo: Bool) async throws {
        let name = isUndo ? JournalEntry.ReservedName.undo : JournalEntry.ReservedName.redo
        let begin = now()
        let result = await store.perform(name) { () -> Swift.Result<Void, any Error> in
            self.store.lock.lock()
            let present = self.store.current
            let taken =
                isUndo
                ? self.records.state.pointee.history.undo(present: present)
                : self.records.state.pointee.history.redo(present: present)
            guard let step = taken else {
                self.store.lock.unlock()
                let error = isUndo ? CommandError.nothingToUndo : CommandError.nothingToRedo
                self.journalStep(name, outcome: CommandOutcome(error), since: begin)
                return .failure(error)
            }
            self.store.current = step.snapshot
            self.store.version &+= 1
            let observers = self.store.observers
            self.store.lock.unlock()
            let label = step.label
            let saveError = self.save(
                step.snapshot, wanted: step.savesModel,
                name: UndoStep(isUndo: isUndo, stepName: label.name).description)
            // Journaled on the writer, before observers run: the journal lists changes in the
            // order they were applied.
            self.journalStep(name, outcome: saveError.map(CommandOutcome.init) ?? .succeeded, since: begin)
            self.store.notify(
                observers,
                of: ModelChange(
                    command: UndoStep(isUndo: isUndo, stepName: label.name), kind: isUndo ? .undo : .redo,
                    old: present, new: step.snapshot))
            return saveError.map { .failure($0) } ?? .success(())
        }
        try result.get()
    }

    /// Journals an undo, redo or replay.
    @usableFromInline
    func journalStep(_ name: String, outcome: CommandOutcome, since begin: UInt64) {
        guard journals else { return }
        let elapsed = nanoseconds(since: begin)
        records.withLock { $0.journal.record(reserved: name, outcome: outcome, nanoseconds: elapsed) }
    }
}
