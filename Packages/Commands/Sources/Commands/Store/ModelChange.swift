/// One change of the model: what caused it, the model before and the model after.
public struct ModelChange<Model: Sendable>: Sendable {
    /// What caused a change.
    public enum Kind: Sendable, Hashable {
        /// A command ran (sync or async).
        case command
        /// An undo restored an earlier snapshot.
        case undo
        /// A redo restored a later snapshot.
        case redo
        /// Journal entries were replayed.
        case replay
    }

    /// The command value that caused the change, or an ``UndoStep`` for undo and redo.
    public var command: any Sendable
    /// What kind of change this is.
    public var kind: Kind
    /// The model before the change.
    public var old: Model
    /// The model after the change.
    public var new: Model

    /// Records a change.
    public init(command: any Sendable, kind: Kind = .command, old: Model, new: Model) {
        self.command = command
        self.kind = kind
        self.old = old
        self.new = new
    }

    /// The command's name (``Command/commandName``), or `"undo AddGroup"` for undo steps.
    public var name: String { commandName(of: command) }
}

/// The `command` of a change made by undo or redo.
public struct UndoStep: Sendable, Hashable, CustomStringConvertible {
    /// Whether the step went back or forward.
    public var isUndo: Bool
    /// The name of the undo step: the command (or group) whose change was undone or redone.
    public var stepName: String

    @usableFromInline
    init(isUndo: Bool, stepName: String) {
        self.isUndo = isUndo
        self.stepName = stepName
    }

    /// `"undo AddGroup"` or `"redo AddGroup"`.
    public var description: String { "\(isUndo ? "undo" : "redo") \(stepName)" }
}
