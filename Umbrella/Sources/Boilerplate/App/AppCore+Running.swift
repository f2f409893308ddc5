import Commands

extension AppCore {
    /// Runs a command. With persistence, its change is saved before this returns and before
    /// ``ModelDidChange`` is published; a `TransientCommand` is announced without waiting
    /// for a save.
    /// - Returns: The command's result.
    /// - Throws: The command's error (the model is untouched), or
    ///   ``AppCoreError/saveFailed(file:underlying:)`` when the change could not be saved (it was
    ///   rolled back: the model, undo history and file are as they were, and nothing was
    ///   published).
    @discardableResult
    public func run<C: Command>(_ command: C) async throws -> C.Result where C.Model == Model {
        try await surfacingSaveFailures { try await runner.run(command) }
    }

    /// Runs an async command; its changes are saved and published as for ``run(_:)-8v0ws``.
    @discardableResult
    public func run<C: AsyncCommand>(_ command: C) async throws -> C.Result where C.Model == Model {
        try await surfacingSaveFailures { try await runner.run(command) }
    }

    /// Undoes the last command; the change is saved, then published.
    /// - Throws: `CommandError.nothingToUndo`, or ``AppCoreError/saveFailed(file:underlying:)``
    ///   (the undo was rolled back).
    public func undo() async throws {
        try await surfacingSaveFailures { try await runner.undo() }
    }

    /// Redoes the last undone command; the change is saved, then published.
    /// - Throws: `CommandError.nothingToRedo`, or ``AppCoreError/saveFailed(file:underlying:)``.
    public func redo() async throws {
        try await surfacingSaveFailures { try await runner.redo() }
    }

    /// Saves the model now, after every change submitted before (a no-op without persistence):
    /// for example to write transient changes.
    /// - Throws: ``AppCoreError/saveFailed(file:underlying:)``.
    public func save() async throws {
        try await surfacingSaveFailures { try await runner.save() }
    }

    /// Rethrows a failed save as the ``AppCoreError`` the save step raised, which names the
    /// file; the runner wraps it in `CommandError.saveFailed(command:underlying:)`.
    private func surfacingSaveFailures<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch CommandError.saveFailed(_, let underlying as AppCoreError) {
            throw underlying
        }
    }
}
