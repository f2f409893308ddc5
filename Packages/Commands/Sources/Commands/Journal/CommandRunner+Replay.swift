extension CommandRunner {
    /// Replays journal entries on the current model and applies the result as one change.
    ///
    /// The change goes through the commit step like any other: it is one undo step, is saved
    /// (with a save step), journaled as `"replay"` and announced with ``ModelChange/Kind/replay``.
    /// - Throws: What ``CommandRegistry/replay(_:on:)`` throws, or
    ///   ``CommandError/saveFailed(command:underlying:)``; the model is then as it was.
    public func replay(_ entries: [JournalEntry], using registry: CommandRegistry<Model>) async throws {
        let name = JournalEntry.ReservedName.replay
        guard ownsStore else { throw CommandError.foreignStore(command: name) }
        let begin = now()
        try await perform(name) { (finish: @escaping Settled<Void>) in
            let new: Model
            do {
                new = try registry.replay(entries, on: self.store.current)
            } catch {
                self.settle(
                    Settlement { _ in
                        self.journalStep(name, outcome: CommandOutcome(error), since: begin)
                    } deliver: { _ in
                        finish(.failure(error))
                    })
                return
            }
            let settlement = Settlement<Model> { saveError in
                if saveError == nil { self.journalStep(name, outcome: .succeeded, since: begin) }
            } deliver: { saveError in
                finish(
                    saveError.map { .failure(CommandError.saveFailed(command: name, underlying: $0)) } ?? .success(()))
            }
            self.commit(saves: true, settlement) { history, old in
                history.record(old: old, label: .name(name), unusual: .record)
                return new
            } change: { old, new in
                ModelChange(command: ReplayedEntries(count: entries.count), kind: .replay, old: old, new: new)
            }
        }
    }
}

/// The `command` of a change made by ``CommandRunner/replay(_:using:)``.
public struct ReplayedEntries: Sendable, Hashable, CustomStringConvertible {
    /// How many journal entries were given to replay.
    public var count: Int

    /// `"replay of 12 entries"`.
    public var description: String { "replay of \(count) entries" }
}
