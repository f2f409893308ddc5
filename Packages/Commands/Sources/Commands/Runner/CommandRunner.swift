import Errors

/// Runs commands against a ``ModelStore``: the only way the model changes.
///
/// Sync commands are applied at once and one at a time; async commands do their slow work
/// concurrently and commit their staged changes in the order they were submitted. Every change
/// takes one path, the commit step: it passes the middleware chain, replaces the model, is
/// recorded for undo, is saved through the runner's ``SaveStep`` (unless it is a
/// ``TransientCommand``), is journaled, and only then is announced to the store's observers.
/// A change whose save fails is rolled back as if it never happened.
///
/// ```swift
/// let store = ModelStore(AppModel())
/// let runner = CommandRunner(store: store)
/// try runner.execute(AddGroup(name: "Swift"))
/// try await runner.run(RefreshTweets(screenName: "swiftlang"))
/// try await runner.undo()
/// ```
public final class CommandRunner<Model: Sendable>: Sendable {
    /// The store this runner changes.
    public let store: ModelStore<Model>
    @usableFromInline let middleware: [any CommandMiddleware<Model>]
    /// How changes are made durable; nil keeps them in memory.
    @usableFromInline let saveStep: SaveStep<Model>?
    /// The undo history, the journal and the group of changes waiting for their save, guarded
    /// by the store's lock.
    @usableFromInline let records: RunnerRecords<Model>
    let sequencer = CommitSequencer()
    let inFlight = InFlightCommands()
    /// Holds this runner's claim on its store (the store keeps it weakly).
    let ownerToken = OwnerToken()
    /// Whether the store takes this runner's changes: false when another runner was created
    /// for it first.
    @usableFromInline let ownsStore: Bool
    /// Whether sync commands may take the fast path: the store is ours, and there is no save
    /// step or middleware, so nothing can fail or wait after a command ran.
    @usableFromInline let isLean: Bool
    /// Durations are only measured when someone reads them (the journal or middleware).
    @usableFromInline let measuresTime: Bool
    /// Whether undo is on (`undoLimit > 0`).
    @usableFromInline let recordsUndo: Bool
    /// Whether the journal is on (`journalLimit > 0`).
    @usableFromInline let journals: Bool
    /// For an `Equatable` model: whether a command left it as it was (then there is no change
    /// to record, save or announce). Nil for other models.
    @usableFromInline let isUnchanged: (@Sendable (Model, Model) -> Bool)?

    /// Creates a runner for `store`.
    ///
    /// A store takes changes from the first runner created for it only (while that runner
    /// lives): another runner's commands fail with ``CommandError/foreignStore(command:)``, so
    /// that no change can go around the first runner's save step.
    ///
    /// - Parameters:
    ///   - store: The store whose model the commands change.
    ///   - undoLimit: How many undo steps to keep; 0 turns undo off.
    ///   - journalLimit: How many journal entries to keep; 0 (the default) keeps none. A
    ///     journal holds on to each command it records, inputs and all, and costs about a
    ///     quarter more per sync command, so it is on only where you ask for it: for a record
    ///     of what ran, or a replay.
    ///   - middleware: The chain around every command, outermost first.
    ///   - save: How each change is made durable before it is announced; nil (the default)
    ///     keeps changes in memory. If it throws, the change is rolled back and the caller gets
    ///     ``CommandError/saveFailed(command:underlying:)``.
    public init(
        store: ModelStore<Model>, undoLimit: Int = 100, journalLimit: Int = 0,
        middleware: [any CommandMiddleware<Model>] = [], save: SaveStep<Model>? = nil
    ) {
        self.store = store
        self.middleware = middleware
        self.saveStep = save
        self.records = RunnerRecords(lock: store.lock, undoLimit: undoLimit, journalLimit: journalLimit)
        self.measuresTime = journalLimit > 0 || !middleware.isEmpty
        self.recordsUndo = undoLimit > 0
        self.journals = journalLimit > 0
        self.isUnchanged = ModelEquality.unchangedTest(for: Model.self)
        self.ownsStore = store.claim(by: ownerToken)
        self.isLean = ownsStore && save == nil && middleware.isEmpty
    }

    /// The journal: the most recent commands, oldest first (in the order their changes were
    /// applied), with their inputs and outcomes. Empty unless the runner was created with a
    /// `journalLimit`.
    ///
    /// Sync commands run by a runner without middleware are timed with a cheap clock, whose
    /// resolution on Linux is the kernel tick (a few milliseconds; quicker commands show a zero
    /// duration); everything else is timed precisely.
    public var journal: [JournalEntry] {
        JournalBuffer.entries(records.withLock { $0.journal.ring.elements })
    }

    /// Empties the journal.
    public func clearJournal() {
        records.withLock { $0.journal.removeAll() }
    }

    // MARK: - Shared steps

    /// Asks each middleware in turn; the first that throws vetoes the command.
    @usableFromInline
    func checkMiddleware(_ info: CommandInfo, model: Model) throws {
        for link in middleware {
            do {
                try link.willRun(info, model: model)
            } catch {
                throw CommandError.vetoed(
                    command: info.name, middleware: String(describing: type(of: link)), reason: error.userMessage)
            }
        }
    }

    /// A precise timestamp to measure a duration from; 0 when nobody reads durations.
    @inlinable
    func now() -> UInt64 {
        measuresTime ? JournalClock.precise() : 0
    }

    /// The time since `start` (from ``now()``), in nanoseconds.
    @inlinable
    func nanoseconds(since start: UInt64) -> UInt64 {
        measuresTime ? JournalClock.precise() &- start : 0
    }

    /// Records how a command ended: journal (unless `journaled` is false: a change rolled back
    /// after a failed save leaves no entry), then middleware in reverse order. Call it on the
    /// writer, without the lock held.
    @inlinable
    func recordOutcome(
        _ info: @autoclosure () -> CommandInfo, outcome: @autoclosure () -> CommandOutcome,
        journals journaled: Bool = true, since start: UInt64
    ) {
        guard measuresTime else { return }
        let info = info()
        let outcome = outcome()
        let elapsed = nanoseconds(since: start)
        if journals && journaled {
            records.withLock { $0.journal.record(info.command, outcome: outcome, nanoseconds: elapsed) }
        }
        guard !middleware.isEmpty else { return }
        let model = store.model
        let duration = Duration.nanoseconds(Int64(clamping: elapsed))
        for link in middleware.reversed() {
            link.didRun(info, outcome: outcome, duration: duration, model: model)
        }
    }
}
