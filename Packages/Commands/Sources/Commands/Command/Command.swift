/// A synchronous change to the model: the only way, besides ``AsyncCommand``, to change it.
///
/// A command is a value that carries its input and holds the business logic. The runner hands
/// it a private copy of the model; if ``execute(_:)`` throws, the copy is dropped and the model
/// stays exactly as it was.
///
/// When the model is `Equatable` and a command leaves it equal to what it was, there is no
/// change: no undo step, no save and no ``ModelChange`` for observers (the command is still
/// journaled). For a model that is not `Equatable`, every command that succeeds counts as a
/// change.
///
/// When the runner has a ``SaveStep``, every change is saved before it is announced, unless
/// the command is a ``TransientCommand``.
///
/// ```swift
/// struct AddGroup: Command {
///     var name: String
///     func execute(_ model: inout AppModel) throws {
///         guard !name.isEmpty else { throw MessageError("A group needs a name.") }
///         model.groups.append(name)
///     }
/// }
/// ```
public protocol Command<Model>: Sendable {
    /// The value type this command changes.
    associatedtype Model: Sendable
    /// What the command returns to its caller; `Void` unless it says otherwise.
    associatedtype Result: Sendable = Void

    /// Changes `model`; throw to leave the model untouched.
    func execute(_ model: inout Model) throws -> Result

    /// The name the journal, middleware and change records use; the type name by default.
    static var commandName: String { get }

    /// How undo treats this command; ``UndoBehavior/record`` by default.
    var undoBehavior: UndoBehavior { get }
}

extension Command {
    /// The type name, such as `"AddGroup"` (`String(describing: Self.self)`).
    public static var commandName: String { TypeNames.name(of: Self.self) }

    /// Every change is recorded for undo unless a command says otherwise.
    public var undoBehavior: UndoBehavior { .record }
}

/// A change to the model that needs to wait for something (the network, a file, a timer).
///
/// The slow part runs concurrently with other commands; only the ``CommandContext/mutate(_:)``
/// blocks touch the model. They are staged and committed together when ``execute(_:)``
/// returns, in the order the commands were submitted; if it throws or is cancelled, none of
/// them is applied.
///
/// ```swift
/// struct RefreshTweets: AsyncCommand {
///     var screenName: String
///     func execute(_ context: CommandContext<AppModel>) async throws {
///         let tweets = try await fetchTweets(screenName)
///         try await context.mutate { $0.tweets = tweets }
///     }
/// }
/// ```
public protocol AsyncCommand<Model>: Sendable {
    /// The value type this command changes.
    associatedtype Model: Sendable
    /// What the command returns to its caller; `Void` unless it says otherwise.
    associatedtype Result: Sendable = Void

    /// Does the slow work and stages changes through `context`.
    func execute(_ context: CommandContext<Model>) async throws -> Result

    /// The name the journal, middleware and change records use; the type name by default.
    static var commandName: String { get }

    /// How undo treats this command; ``UndoBehavior/record`` by default.
    var undoBehavior: UndoBehavior { get }
}

extension AsyncCommand {
    /// The type name, such as `"RefreshTweets"` (`String(describing: Self.self)`).
    public static var commandName: String { TypeNames.name(of: Self.self) }

    /// Every change is recorded for undo unless a command says otherwise.
    public var undoBehavior: UndoBehavior { .record }
}

/// The name of any command value: its `commandName` when it is a command, else its type name.
func commandName(of value: any Sendable) -> String {
    switch value {
    case let command as any Command: type(of: command).commandName
    case let command as any AsyncCommand: type(of: command).commandName
    case let step as UndoStep: step.description
    default: TypeNames.name(of: type(of: value))
    }
}

/// The name commands of `type` go by: their `commandName` when it is a command type, else the
/// type name.
func commandName(ofType type: Any.Type) -> String {
    switch type {
    case let command as any Command.Type: command.commandName
    case let command as any AsyncCommand.Type: command.commandName
    default: TypeNames.name(of: type)
    }
}
