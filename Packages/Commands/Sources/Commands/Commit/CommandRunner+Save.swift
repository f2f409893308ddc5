extension CommandRunner {
    /// Saves the model through the save step now, after every change submitted before this
    /// call; a no-op without a save step. Useful to write changes of ``TransientCommand``s.
    ///
    /// The save is grouped with any change waiting for one, like any other.
    /// - Throws: ``CommandError/saveFailed(command:underlying:)`` (named `"save"`); changes
    ///   saved in the same write are rolled back with it.
    public func save() async throws {
        let name = "save"
        guard ownsStore else { throw CommandError.foreignStore(command: name) }
        guard saveStep != nil else { return }
        try await perform(name) { (finish: @escaping Settled<Void>) in
            self.settle(
                Settlement { _ in
                } deliver: { saveError in
                    finish(
                        saveError.map { .failure(CommandError.saveFailed(command: name, underlying: $0)) }
                            ?? .success(()))
                }, joinsSave: true)
        }
    }
}
