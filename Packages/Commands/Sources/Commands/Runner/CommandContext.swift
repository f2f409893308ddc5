/// What an ``AsyncCommand`` gets to stage its changes, read the model and run child commands.
///
/// Changes made through a context are all-or-nothing: they are applied when the command
/// returns, and dropped if it throws or is cancelled.
public final class CommandContext<Model: Sendable>: Sendable {
    let transaction: Transaction<Model>

    init(transaction: Transaction<Model>) {
        self.transaction = transaction
    }

    /// The model as this command sees it: the store's model plus the changes staged so far.
    public var model: Model { transaction.model }

    /// Whether the command has been cancelled; long work should check this and stop.
    public var isCancelled: Bool { Task.isCancelled }

    /// Stages a change and returns what `block` returns.
    ///
    /// `block` runs at once on this command's view of the model. Blocks are applied to the
    /// store, in order, when the command succeeds; if another command changed the model in the
    /// meantime they are run again on the newer model, so keep them free of side effects.
    ///
    /// - Throws: `CancellationError` when the command is cancelled, what `block` throws, or
    ///   ``CommandError/contextExpired(command:)`` after the command finished.
    @discardableResult
    public func mutate<T>(_ block: @escaping @Sendable (inout Model) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try transaction.mutate(block)
    }

    /// Runs a child async command as part of this one. If the child throws, its staged changes
    /// are rolled back and the error is rethrown.
    @discardableResult
    public func run<C: AsyncCommand>(_ child: C) async throws -> C.Result where C.Model == Model {
        let savepoint = transaction.savepoint
        do {
            return try await child.execute(self)
        } catch {
            transaction.rollBack(to: savepoint)
            throw error
        }
    }

    /// Runs a child sync command as part of this one, as a staged change.
    @discardableResult
    public func execute<C: Command>(_ child: C) async throws -> C.Result where C.Model == Model {
        try await mutate { try child.execute(&$0) }
    }

    /// Runs child commands concurrently. When one throws, the others are cancelled, every
    /// child's staged changes are rolled back, and the first error is rethrown.
    public func runConcurrently(_ children: [any AsyncCommand<Model>]) async throws {
        let savepoint = transaction.savepoint
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for child in children {
                    group.addTask { try await self.runChild(child) }
                }
                // Not `waitForAll()`: it waits for every child before throwing, and the
                // siblings of a failed child must be cancelled at once.
                do {
                    while try await group.next() != nil {}
                } catch {
                    group.cancelAll()
                    throw error
                }
            }
        } catch {
            transaction.rollBack(to: savepoint)
            throw error
        }
    }

    private func runChild<C: AsyncCommand>(_ child: C) async throws where C.Model == Model {
        _ = try await child.execute(self)
    }
}
