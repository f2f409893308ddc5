/// A command made of child commands, applied in order to one copy of the model.
///
/// If a child throws, the children after it do not run and the whole batch leaves the model
/// untouched: the runner only applies a command's copy when the command succeeds.
///
/// ```swift
/// try runner.execute(CommandBatch([AddGroup(name: "Swift"), AddGroup(name: "Linux")]))
/// ```
public struct CommandBatch<Model: Sendable>: Command {
    /// The children, in the order they run.
    public var commands: [any Command<Model>]
    /// How undo treats the batch as a whole.
    public var undoBehavior: UndoBehavior

    /// A batch of `commands`, one undo step by default. Its change is one commit: saved once,
    /// announced once.
    public init(_ commands: [any Command<Model>], undoBehavior: UndoBehavior = .record) {
        self.commands = commands
        self.undoBehavior = undoBehavior
    }

    /// Runs every child on `model`, stopping at the first that throws.
    public func execute(_ model: inout Model) throws {
        for command in commands {
            try Self.apply(command, to: &model)
        }
    }

    private static func apply<C: Command>(_ command: C, to model: inout C.Model) throws {
        _ = try command.execute(&model)
    }
}
