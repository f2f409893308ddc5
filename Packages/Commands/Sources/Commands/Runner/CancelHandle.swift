import _KitSupport

/// Cancels an async command's task, and remembers that it did, so the commit (which runs on
/// another thread) can tell.
///
/// Cancelling and committing exclude each other: once ``beginCommit()`` has won, cancelling
/// does nothing (the change is already being applied); once cancelling has won, the command
/// never commits, and its caller is told at once, even if its slow part ignores cancellation.
final class CancelHandle: Sendable {
    struct State {
        var isCancelled = false
        var isCommitting = false
        var cancelTask: (@Sendable () -> Void)?
        var onCancel: [@Sendable () -> Void] = []
    }

    let state = Locked(State())

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Connects the task; cancels it at once if cancellation came first.
    func attach(_ cancelTask: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state in
            state.cancelTask = cancelTask
            return state.isCancelled
        }
        if cancelled { cancelTask() }
    }

    /// Adds something else to do on cancellation (give up the place in the commit order, tell
    /// the caller); does it at once if cancellation came first.
    func whenCancelled(_ action: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state in
            if !state.isCancelled { state.onCancel.append(action) }
            return state.isCancelled
        }
        if cancelled { action() }
    }

    /// Claims the right to commit; false when the command was cancelled first.
    func beginCommit() -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            state.isCommitting = true
            return true
        }
    }

    func cancel() {
        let actions = state.withLock { state -> (task: (@Sendable () -> Void)?, others: [@Sendable () -> Void])? in
            guard !state.isCancelled, !state.isCommitting else { return nil }
            state.isCancelled = true
            defer { state.onCancel = [] }
            return (state.cancelTask, state.onCancel)
        }
        guard let actions else { return }
        actions.task?()
        for action in actions.others { action() }
    }
}

/// Hands a command's result to its caller exactly once: whichever of "the command finished"
/// and "the command was cancelled" comes first.
final class Delivery<Value: Sendable>: Sendable {
    typealias Receiver = @Sendable (Swift.Result<Value, any Error>) -> Void

    private let receiver: Locked<Receiver?>

    init(_ receiver: @escaping Receiver) {
        self.receiver = Locked(receiver)
    }

    func callAsFunction(_ result: Swift.Result<Value, any Error>) {
        let receiver = receiver.withLock { receiver in
            defer { receiver = nil }
            return receiver
        }
        receiver?(result)
    }
}
