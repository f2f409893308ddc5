import Commands
import EventBus

/// Published on ``AppCore/bus`` after a command changed the model (and, with persistence, after
/// the change was saved).
///
/// ```swift
/// app.bus.watch(ModelDidChange<NotesModel>.self) { change in print(change.command, change.new.notes) }
/// ```
public struct ModelDidChange<Model: Sendable>: Event {
    /// The name of the command that made the change, or `undo …`/`redo …`.
    public var command: String
    /// The model before the change.
    public var old: Model
    /// The model after the change.
    public var new: Model

    /// Creates the event from a store change.
    public init(_ change: ModelChange<Model>) {
        command = change.name
        old = change.old
        new = change.new
    }
}
