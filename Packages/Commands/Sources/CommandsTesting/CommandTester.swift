import Commands
import Foundation
import _KitSupport

/// Runs commands in a test and makes the test assert every change of the model, exactly.
///
/// The tester observes the store, not the commands it was given: a change made by a command
/// queued from an observer, by an async command still in flight, or by undo is a change the test
/// must assert too (with ``receive(_:timeout:fileID:filePath:line:column:_:)``), or it fails. That closes the gap where
/// an indirect change slips through unasserted.
///
/// ```swift
/// let tester = CommandTester(AppModel())
/// try tester.execute(AddGroup(name: "Swift")) { $0.groups = ["Swift"] }
/// try await tester.run(RefreshTweets(screenName: "swiftlang")) { $0.tweets = ["…"] }
/// tester.finish()
/// ```
///
/// Pass `exhaustivity: .off` to assert only what a test names (see ``Exhaustivity``), and use
/// ``replay(_:using:fileID:filePath:line:column:_:)`` to reproduce a user's session from their
/// recorded journal.
public final class CommandTester<Model: Sendable & Equatable>: Sendable {
    /// The store under test.
    public let store: ModelStore<Model>
    /// The runner the tester drives; use it directly for what the tester does not wrap.
    public let runner: CommandRunner<Model>
    let reporter: FailureReporter
    let created: CallSite
    let state: Locked<State>
    private let observation: Locked<ChangeObservation?> = Locked(nil)

    struct State {
        var unasserted: [ModelChange<Model>] = []
        var finished = false
        var exhaustivity: Exhaustivity
    }

    /// A tester with a fresh store holding `model` and a runner with the given options.
    public convenience init(
        _ model: Model, undoLimit: Int = 100, journalLimit: Int = 1_000,
        middleware: [any CommandMiddleware<Model>] = [], save: SaveStep<Model>? = nil,
        exhaustivity: Exhaustivity = .on, reporter: FailureReporter = .testing, fileID: String = #fileID,
        filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        let runner = CommandRunner(
            store: ModelStore(model), undoLimit: undoLimit, journalLimit: journalLimit, middleware: middleware,
            save: save)
        self.init(
            runner: runner, exhaustivity: exhaustivity, reporter: reporter, fileID: fileID, filePath: filePath,
            line: line, column: column)
    }

    /// A tester for an existing runner; changes made before this call are not its business.
    public init(
        runner: CommandRunner<Model>, exhaustivity: Exhaustivity = .on, reporter: FailureReporter = .testing,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        self.runner = runner
        self.store = runner.store
        self.reporter = reporter
        self.created = site
        self.state = Locked(State(exhaustivity: exhaustivity))
        let observation = store.observe { [state] change in
            state.withLock { $0.unasserted.append(change) }
        }
        self.observation.withLock { $0 = observation }
    }

    /// How much of each change the test must assert; it may change between steps, e.g. to
    /// assert a setup flow loosely and the step under test exhaustively.
    public var exhaustivity: Exhaustivity {
        get { state.withLock { $0.exhaustivity } }
        set { state.withLock { $0.exhaustivity = newValue } }
    }

    /// The changes nobody has asserted yet, oldest first.
    public var unassertedChanges: [ModelChange<Model>] { state.withLock { $0.unasserted } }

    /// Executes a sync command and asserts its change.
    ///
    /// `fileID`, `filePath`, `line` and `column` locate the assertion; leave them to their
    /// defaults (the same holds for every method of the tester).
    ///
    /// - Parameters:
    ///   - command: The command to run.
    ///   - fileID: The file ID of the assertion; leave it to its default.
    ///   - filePath: The file path of the assertion; leave it to its default.
    ///   - line: The line of the assertion; leave it to its default.
    ///   - column: The column of the assertion; leave it to its default.
    ///   - expected: Mutates the model as it was before the command into the model you expect
    ///     after it. Omit it to assert that the command changed nothing.
    /// - Returns: The command's result.
    /// - Throws: What the command throws; the test then asserts no change happened.
    @discardableResult
    public func execute<C: Command>(
        _ command: C, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        _ expected: (inout Model) throws -> Void = { _ in }
    ) throws -> C.Result where C.Model == Model {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        checkNothingPending(before: C.commandName, site: site)
        let before = store.model
        let result: C.Result
        do {
            result = try runner.execute(command)
        } catch {
            checkNothingPending(before: nil, site: site)
            throw error
        }
        try assertNext(named: C.commandName, before: before, site: site, expected)
        return result
    }

    /// Runs an async command and asserts its change, as ``execute(_:fileID:filePath:line:column:_:)`` does.
    @discardableResult
    public func run<C: AsyncCommand>(
        _ command: C, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        _ expected: (inout Model) throws -> Void = { _ in }
    ) async throws -> C.Result where C.Model == Model {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        checkNothingPending(before: C.commandName, site: site)
        let before = store.model
        let result: C.Result
        do {
            result = try await runner.run(command)
        } catch {
            checkNothingPending(before: nil, site: site)
            throw error
        }
        try assertNext(named: C.commandName, before: before, site: site, expected)
        return result
    }

    /// Undoes the latest step and asserts the change it made.
    public func undo(
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        _ expected: (inout Model) throws -> Void
    ) async throws {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        checkNothingPending(before: "undo", site: site)
        let before = store.model
        try await runner.undo()
        try assertNext(named: nil, before: before, site: site, expected)
    }

    /// Redoes the latest undone step and asserts the change it made.
    public func redo(
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        _ expected: (inout Model) throws -> Void
    ) async throws {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        checkNothingPending(before: "redo", site: site)
        let before = store.model
        try await runner.redo()
        try assertNext(named: nil, before: before, site: site, expected)
    }

    /// Asserts the next unasserted change: it was made by a `C`, and `expected` turns its old
    /// model into its new one. Waits up to `timeout` for it to happen (for indirect and async
    /// commands).
    public func receive<C>(
        _ type: C.Type, timeout: Duration = .seconds(5), fileID: String = #fileID, filePath: String = #filePath,
        line: Int = #line, column: Int = #column,
        _ expected: (inout Model) throws -> Void = { _ in }
    ) async throws {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let name = commandName(of: type)
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if let change = state.withLock({ nextReceivable(named: name, in: &$0) }) {
                try check(change, named: name, site: site, expected)
                return
            }
            guard clock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(1))
        }
        reporter.report("Expected a change by \(name), but none happened within \(timeout).", site)
    }

    /// Reproduces a recorded session: replays `entries` (a user's journal, e.g. decoded from the
    /// JSON they sent with a bug report) on the current model through the runner, as one change,
    /// and asserts it.
    ///
    /// ```swift
    /// let journal = try JSONDecoder().decode([JournalEntry].self, from: reportedJournal)
    /// try await tester.replay(journal, using: registry) { $0.notes = ["milk", "eggs"] }
    /// ```
    ///
    /// - Parameters:
    ///   - entries: The journal to replay, oldest first.
    ///   - registry: The commands the journal may name.
    ///   - fileID: The file ID of the assertion; leave it to its default.
    ///   - filePath: The file path of the assertion; leave it to its default.
    ///   - line: The line of the assertion; leave it to its default.
    ///   - column: The column of the assertion; leave it to its default.
    ///   - expected: Turns the model before the replay into the one expected after it.
    /// - Throws: What `CommandRunner.replay(_:using:)` throws — an unknown command or an
    ///   undecodable input names the entry's index; the model is then unchanged.
    public func replay(
        _ entries: [JournalEntry], using registry: CommandRegistry<Model>, fileID: String = #fileID,
        filePath: String = #filePath, line: Int = #line, column: Int = #column,
        _ expected: (inout Model) throws -> Void
    ) async throws {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        checkNothingPending(before: JournalEntry.ReservedName.replay, site: site)
        let before = store.model
        do {
            try await runner.replay(entries, using: registry)
        } catch {
            checkNothingPending(before: nil, site: site)
            throw error
        }
        try assertNext(named: nil, before: before, site: site, expected)
    }

    /// Fails the test if any change is unasserted; call it at the end of the test.
    public func finish(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column)
    {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        state.withLock { $0.finished = true }
        checkNothingPending(before: nil, site: site)
    }

    deinit {
        observation.withLock { $0?.cancel() }
        let (finished, unasserted, exhaustivity) = state.withLock { ($0.finished, $0.unasserted, $0.exhaustivity) }
        if !finished, !unasserted.isEmpty, exhaustivity == .on {
            reporter.report(Self.pendingMessage(unasserted, before: nil), created)
        }
    }
}
