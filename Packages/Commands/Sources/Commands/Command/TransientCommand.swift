/// A command whose change the runner's ``SaveStep`` does not wait for: UI state, a selection,
/// anything cheap to lose.
///
/// Every command that changes the model is saved before it is announced; a transient command
/// opts out. Its change is announced at once (unless it follows a change still being saved, in
/// which case it is announced with it) and is written with the next save.
///
/// ```swift
/// struct SelectNote: Command, TransientCommand {
///     var index: Int
///     func execute(_ model: inout Notebook) throws { model.selection = index }
/// }
/// ```
public protocol TransientCommand {}
