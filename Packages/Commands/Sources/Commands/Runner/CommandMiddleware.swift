import Errors

/// A link in the chain the runner wraps around every command: logging, analytics, validation,
/// timing.
///
/// Before a command runs, each middleware's ``willRun(_:model:)`` is called in chain order; one
/// that throws vetoes the command (it fails with ``CommandError/vetoed(command:middleware:reason:)``
/// and the model is untouched). After it finishes, ``didRun(_:outcome:duration:model:)`` is called
/// in reverse order, whatever the outcome.
public protocol CommandMiddleware<Model>: Sendable {
    /// The model of the runner this middleware is used with.
    associatedtype Model: Sendable

    /// Called before `command` runs, with the model as it is now. Throw to veto.
    func willRun(_ command: CommandInfo, model: Model) throws

    /// Called after `command` finished, with the model as it is now.
    func didRun(_ command: CommandInfo, outcome: CommandOutcome, duration: Duration, model: Model)
}

extension CommandMiddleware {
    /// Lets every command run.
    public func willRun(_ command: CommandInfo, model: Model) throws {}

    /// Observes nothing.
    public func didRun(_ command: CommandInfo, outcome: CommandOutcome, duration: Duration, model: Model) {}
}

/// What middleware learns about a command.
public struct CommandInfo: Sendable {
    /// The command value; cast it to its type to read its input.
    public var command: any Sendable
    /// The id it was run with, if any.
    public var id: String?
    /// Whether it is an ``AsyncCommand``.
    public var isAsync: Bool

    @usableFromInline
    init(command: any Sendable, id: String? = nil, isAsync: Bool) {
        self.command = command
        self.id = id
        self.isAsync = isAsync
    }

    /// The command's name (``Command/commandName``).
    public var name: String { commandName(of: command) }
}

/// How a command ended.
public enum CommandOutcome: Sendable, Hashable, Codable {
    /// It succeeded and its changes (if any) were applied.
    case succeeded
    /// It threw; the model is untouched. Carries the error's code and message.
    case failed(code: String, message: String)
    /// It was cancelled; the model is untouched.
    case cancelled
    /// A middleware vetoed it; the model is untouched.
    case vetoed(message: String)
    /// It ran, but saving its change failed, so the change was rolled back. Middleware sees
    /// this outcome; the journal keeps no entry for a rolled-back change.
    case saveFailed(message: String)

    /// Whether the command's changes were applied (and kept).
    public var appliedChanges: Bool {
        switch self {
        case .succeeded: true
        case .failed, .cancelled, .vetoed, .saveFailed: false
        }
    }

    @usableFromInline
    init(_ error: any Error) {
        switch error {
        case CommandError.cancelled, is CancellationError: self = .cancelled
        case let error as CommandError:
            switch error {
            case .vetoed: self = .vetoed(message: error.message)
            case .saveFailed: self = .saveFailed(message: error.message)
            default: self = .failed(code: error.code, message: error.message)
            }
        case let error as any AppError: self = .failed(code: error.code, message: error.message)
        default: self = .failed(code: String(describing: type(of: error)), message: error.userMessage)
        }
    }
}
