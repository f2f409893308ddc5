/// Cancels an async command's task, and remembers that it did, so the commit (which runs on
/// another thread) can tell.
final class CancelHandle: Sendable {
    struct State {
        var isCancelled = false
        var cancelTask: (@Sendable () -> Void)?
        var onCancel: (@Sendable () -> Void)?
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

    /// Sets what else to do on cancellation (give up the place in the commit order).
    func whenCancelled(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onCancel = action }
    }

    func cancel() {
        let (cancelTask, onCancel) = state.withLock { state in
            let first = !state.isCancelled
            state.isCancelled = true
            return (state.cancelTask, first ? state.onCancel : nil)
        }
        cancelTask?()
        onCancel?()
    }
}
