import Errors

/// What can go wrong when running, undoing or replaying commands.
///
/// A command's own errors reach the caller unchanged; these are the runner's.
public enum CommandError: AppError, Equatable {
    /// The command was cancelled (by id, by a newer command with the same id, or with its
    /// caller's task) before its changes were committed; the model is untouched.
    case cancelled(command: String)
    /// A middleware refused to let the command run; the model is untouched.
    case vetoed(command: String, middleware: String, reason: String)
    /// The runner's ``SaveStep`` failed, so the change was rolled back: the model, the undo
    /// history and the journal are as they were before it, and no observer heard of it. A
    /// change built on one whose save failed (saved in the same write) fails the same way.
    case saveFailed(command: String, underlying: any Error)
    /// The command was run by a runner whose store belongs to another runner. A store takes
    /// changes only from the runner it was created with, so that every change goes through that
    /// runner's save step; nothing was changed.
    case foreignStore(command: String)
    /// `execute` was called on a runner whose save step is async: waiting for it would block a
    /// thread. Use `await run(_:)` or `run(_:completion:)`; nothing was changed.
    case asyncSaveNeedsAwait(command: String)
    /// `execute` was called from inside a change observer or another command, where it would
    /// run nested; use `run(_:completion:)` or `await run(_:)`, which queue it to run next.
    case reentrantExecute(command: String)
    /// A ``CommandContext`` was used after its command had finished.
    case contextExpired(command: String)
    /// `undo()` with an empty undo history.
    case nothingToUndo
    /// `redo()` with nothing undone since the last recorded change.
    case nothingToRedo
    /// A journal entry names a command the registry does not know.
    case unknownCommand(name: String, entry: Int)
    /// A journal entry's input is missing or does not decode as its command.
    case undecodableInput(name: String, entry: Int, reason: String)
    /// A journal entry records an undo or redo, which replay cannot reproduce.
    case notReplayable(name: String, entry: Int)

    /// What went wrong and where, for a person.
    public var message: String {
        switch self {
        case .cancelled(let command):
            "\(command) was cancelled before its changes were applied."
        case .vetoed(let command, let middleware, let reason):
            "\(command) was stopped by \(middleware): \(reason)"
        case .saveFailed(let command, let underlying):
            "\(command) was not applied because saving the model failed: \(underlying.userMessage)"
        case .foreignStore(let command):
            "\(command) was not run: this runner's store takes changes only from the runner it was created "
                + "with. Run commands through that runner (in an app, through AppCore.run)."
        case .asyncSaveNeedsAwait(let command):
            "\(command) was not run: this runner saves asynchronously, and execute(_:) would block a thread "
                + "waiting for the save. Use await run(_:) or run(_:completion:)."
        case .reentrantExecute(let command):
            "\(command) was executed synchronously from inside a change observer or command; "
                + "use run(_:completion:) or await run(_:) there, which queue it to run next."
        case .contextExpired(let command):
            "\(command) used its CommandContext after it had finished; stage changes before returning."
        case .nothingToUndo:
            "There is nothing to undo."
        case .nothingToRedo:
            "There is nothing to redo."
        case .unknownCommand(let name, let entry):
            "Journal entry \(entry) names the command \"\(name)\", which is not registered for replay."
        case .undecodableInput(let name, let entry, let reason):
            "Journal entry \(entry) (\(name)) has input that cannot be decoded: \(reason)"
        case .notReplayable(let name, let entry):
            "Journal entry \(entry) is an \(name), which replay cannot reproduce."
        }
    }

    /// The save error behind ``saveFailed(command:underlying:)``.
    public var underlyingError: (any Error)? {
        if case .saveFailed(_, let underlying) = self { return underlying }
        return nil
    }

    /// Two errors are equal when they are the same case with the same message; a saved
    /// error's identity beyond its message does not matter.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }
}
