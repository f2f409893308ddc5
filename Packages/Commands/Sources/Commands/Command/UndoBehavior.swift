/// How the undo history treats a command's change.
public enum UndoBehavior: Sendable, Hashable, Codable {
    /// The change becomes one undo step (or joins the open undo group).
    case record
    /// Consecutive changes with the same key become one undo step: typing, dragging, slider moves.
    case coalesce(String)
    /// The change is not an undo step. Undoing an earlier step restores the snapshot taken
    /// before that step, so it also reverts skipped changes made since; skip only what does not
    /// matter on its own (selection, scroll position, caches).
    case skip
    /// The change cannot be undone and nothing before it can be either: the history is cleared.
    case clearHistory
}
