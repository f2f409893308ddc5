import Commands

extension AppCore {
    /// Runs a command; with persistence the new model is saved before this returns, then
    /// ``ModelDidChange`` is published.
    /// - Returns: The command's result.
    /// - Throws: The command's error (the model is untouched), or
    ///   ``AppCoreError/saveFailed(file:underlying:)`` when the change could not be saved.
    @discardableResult
    public func run<C: Command>(_ command: C) async throws -> C.Result where C.Model == Model {
        try await changing(saving: !(command is any TransientCommand)) { try runner.execute(command) }
    }

    /// Runs an async command; its changes are saved and published as for ``run(_:)-8v0ws``.
    @discardableResult
    public func run<C: AsyncCommand>(_ command: C) async throws -> C.Result where C.Model == Model {
        try await changing(saving: !(command is any TransientCommand)) { try await runner.run(command) }
    }

    /// Undoes the last command, saving and publishing the change.
    public func undo() async throws {
        try await changing(saving: true) { try await runner.undo() }
    }

    /// Redoes the last undone command, saving and publishing the change.
    public func redo() async throws {
        try await changing(saving: true) { try await runner.redo() }
    }

    /// Saves the model now (a no-op without persistence).
    /// - Throws: ``AppCoreError/saveFailed(file:underlying:)``.
    public func save() throws {
        guard let fileStore, let modelFile else { return }
        // Saves are serialised and each writes the newest snapshot, so the file never goes
        // back to an older model when two commands finish at once.
        saveLock.lock()
        defer { saveLock.unlock() }
        do {
            try fileStore.save(store.model, as: modelFile)
        } catch {
            throw AppCoreError.saveFailed(file: modelFile, underlying: error)
        }
    }

    /// Holds change events while `body` runs and the model is saved, then publishes them.
    private func changing<Result>(saving: Bool, _ body: () async throws -> Result) async throws -> Result {
        publisher.hold()
        var published = false
        defer { if !published { publisher.release() } }
        let result = try await body()
        if saving {
            do {
                try save()
            } catch {
                published = true
                publisher.release()
                throw error
            }
        }
        published = true
        publisher.release()
        return result
    }
}
