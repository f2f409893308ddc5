extension CommandRunner {
    /// Whether there is a step to undo.
    public var canUndo: Bool { history.canUndo }

    /// Whether there is a step to redo.
    public var canRedo: Bool { history.canRedo }

    /// The name of the step ``undo()`` would undo: a command's name or a group's.
    public var undoName: String? { history.undoName }

    /// The name of the step ``redo()`` would redo.
    public var redoName: String? { history.redoName }

    /// Restores the model as it was before the latest undo step.
    ///
    /// Undo is a change like any other: it waits its turn, is announced to observers (with an
    /// ``UndoStep`` as its command), journaled, and saved if the undone step was.
    /// - Throws: ``CommandError/nothingToUndo`` when the history is empty (the model is
    ///   untouched), or ``CommandError/saveFailed(command:underlying:)``.
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
        history.beginGroup(name)
    }

    /// Closes the innermost undo group.
    public func endUndoGroup() {
        history.endGroup()
    }

    /// Runs `body` inside an undo group named `name`, so its commands undo as one step.
    public func withUndoGroup<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        history.beginGroup(name)
        defer { history.endGroup() }
        return try body()
    }

    /// Runs async `body` inside an undo group named `name`.
    public func withUndoGroup<T>(
        _ name: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        history.beginGroup(name)
        defer { history.endGroup() }
        return try await body()
    }

    private func step(isUndo: Bool) async throws {
        let name = isUndo ? JournalEntry.ReservedName.undo : JournalEntry.ReservedName.redo
        let begin = measuresTime ? ContinuousClock.now : nil
        let result = await store.perform(name) { () -> Swift.Result<Void, any Error> in
            let present = self.store.current
            let taken = isUndo ? self.history.undo(present: present) : self.history.redo(present: present)
            guard let step = taken else {
                let error = isUndo ? CommandError.nothingToUndo : CommandError.nothingToRedo
                self.journalStep(name, outcome: CommandOutcome(error), since: begin)
                return .failure(error)
            }
            let observers = self.store.commit(step.snapshot)
            let undoStep = UndoStep(isUndo: isUndo, stepName: step.name)
            let saveError = self.save(step.snapshot, wanted: step.savesModel, name: undoStep.description)
            // Journaled on the writer, before observers run: the journal lists changes in the
            // order they were applied.
            self.journalStep(name, outcome: saveError.map(CommandOutcome.init) ?? .succeeded, since: begin)
            self.store.notify(
                observers,
                of:
                    ModelChange(command: undoStep, kind: isUndo ? .undo : .redo, old: present, new: step.snapshot))
            return saveError.map { .failure($0) } ?? .success(())
        }
        try result.get()
    }

    /// Journals an undo, redo or replay.
    func journalStep(_ name: String, outcome: CommandOutcome, since begin: ContinuousClock.Instant?) {
        guard measuresTime else { return }
        journalBuffer.record(
            name, name: name, outcome: outcome, duration: begin.map { ContinuousClock.now - $0 } ?? .zero)
    }
}
