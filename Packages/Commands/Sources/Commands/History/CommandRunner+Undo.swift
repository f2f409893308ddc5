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
    /// Undo is a change like any other: it waits its turn, is saved (with a save step), then
    /// journaled and announced to observers (with an ``UndoStep`` as its command).
    /// - Throws: ``CommandError/nothingToUndo`` when the history is empty (the model is
    ///   untouched), or ``CommandError/saveFailed(command:underlying:)`` (the model and the
    ///   history are as they were before the undo).
    public func undo() async throws {
        try await step(isUndo: true)
    }

    /// Restores the model as it was before the latest ``undo()``.
    /// - Throws: ``CommandError/nothingToRedo`` when nothing was undone since the last
    ///   recorded change, or ``CommandError/saveFailed(command:underlying:)``.
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

    /// Undoes or redoes one step through the commit step: taking the step from the history
    /// and restoring its snapshot is one critical section; the step's name is only worked out
    /// outside it.
    func step(isUndo: Bool) async throws {
        let name = isUndo ? JournalEntry.ReservedName.undo : JournalEntry.ReservedName.redo
        guard ownsStore else { throw CommandError.foreignStore(command: name) }
        let begin = now()
        try await perform(name) { (finish: @escaping Settled<Void>) in
            var label: StepLabel?
            // A step rolled back after a failed save leaves no journal entry.
            let settlement = Settlement<Model> { saveError in
                if saveError == nil { self.journalStep(name, outcome: .succeeded, since: begin) }
            } deliver: { saveError in
                finish(
                    saveError.map { .failure(CommandError.saveFailed(command: name, underlying: $0)) } ?? .success(()))
            }
            let changed = self.commit(saves: true, settlement) { history, present in
                guard let step = isUndo ? history.undo(present: present) : history.redo(present: present) else {
                    return nil
                }
                label = step.label
                return step.snapshot
            } change: { old, new in
                ModelChange(
                    command: UndoStep(isUndo: isUndo, stepName: label?.name ?? ""), kind: isUndo ? .undo : .redo,
                    old: old, new: new)
            }
            guard !changed else { return }
            let error = isUndo ? CommandError.nothingToUndo : CommandError.nothingToRedo
            self.settle(
                Settlement { _ in
                    self.journalStep(name, outcome: CommandOutcome(error), since: begin)
                } deliver: { _ in
                    finish(.failure(error))
                })
        }
    }

    /// Journals an undo, redo or replay.
    func journalStep(_ name: String, outcome: CommandOutcome, since begin: UInt64) {
        guard journals else { return }
        let elapsed = nanoseconds(since: begin)
        records.withLock { $0.journal.record(reserved: name, outcome: outcome, nanoseconds: elapsed) }
    }
}
