extension CommandRunner {
    /// Replays journal entries on the current model and applies the result as one change.
    ///
    /// The change is announced with ``ModelChange/Kind/replay``, is one undo step, and is
    /// journaled as `"replay"`.
    /// - Throws: What ``CommandRegistry/replay(_:on:)`` throws; the model is then untouched.
    public func replay(_ entries: [JournalEntry], using registry: CommandRegistry<Model>) async throws {
        let name = JournalEntry.ReservedName.replay
        let begin = now()
        let result = await store.perform(name) { () -> Swift.Result<Void, any Error> in
            let old = self.store.current
            do {
                let new = try registry.replay(entries, on: old)
                let observers = self.store.commit(new) {
                    self.records.state.pointee.history.record(
                        old: old, label: .name(name), unusual: .record, savesModel: false)
                }
                self.journalStep(name, outcome: .succeeded, since: begin)
                self.store.notify(
                    observers,
                    of:
                        ModelChange(command: ReplayedEntries(count: entries.count), kind: .replay, old: old, new: new))
                return .success(())
            } catch {
                self.journalStep(name, outcome: CommandOutcome(error), since: begin)
                return .failure(error)
            }
        }
        try result.get()
    }
}

/// The `command` of a change made by ``CommandRunner/replay(_:using:)``.
public struct ReplayedEntries: Sendable, Hashable, CustomStringConvertible {
    /// How many journal entries were given to replay.
    public var count: Int

    /// `"replay of 12 entries"`.
    public var description: String { "replay of \(count) entries" }
}
