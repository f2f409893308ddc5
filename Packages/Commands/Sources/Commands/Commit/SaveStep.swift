/// How a ``CommandRunner`` makes a change durable: the persistence hook of its commit step.
///
/// The runner calls it with the new model after a change and before anyone hears of the change.
/// If it throws, the change is rolled back. Changes made while a save is under way are saved
/// together by the next call (group commit), so the step should write the whole model it is
/// given, atomically: a later call always carries a newer model.
///
/// ```swift
/// let runner = CommandRunner(store: store, save: .sync { model in
///     try JSONEncoder().encode(model).write(to: fileURL, options: .atomic)
/// })
/// ```
public struct SaveStep<Model: Sendable>: Sendable {
    enum Kind: Sendable {
        case sync(@Sendable (Model) throws -> Void)
        case async(@Sendable (Model) async throws -> Void)
    }

    let kind: Kind

    /// A save that runs on the thread that commits the change (a file write, a database write).
    ///
    /// Sync and async callers alike wait for it without blocking other commands' threads: while
    /// it runs, later changes queue up and are saved together by the next call.
    public static func sync(_ save: @escaping @Sendable (Model) throws -> Void) -> SaveStep {
        SaveStep(kind: .sync(save))
    }

    /// A save that needs to wait for something (an actor, a server).
    ///
    /// Commands on a runner with an async save step must be started with `await run(_:)` or
    /// `run(_:completion:)`: `execute(_:)` would block its thread while the save runs, so it
    /// throws ``CommandError/asyncSaveNeedsAwait(command:)``.
    public static func async(_ save: @escaping @Sendable (Model) async throws -> Void) -> SaveStep {
        SaveStep(kind: .async(save))
    }

    var isAsync: Bool {
        if case .async = kind { return true }
        return false
    }
}
