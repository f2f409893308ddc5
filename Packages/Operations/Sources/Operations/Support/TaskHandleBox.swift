import _KitSupport

/// A handle on the task that runs an operation, shared by the operations a runner's worker runs in turn.
///
/// A cancellation names the operation it is meant for, so a late one never hits the next
/// operation on the same task. The task is created before its handle can be stored, so a
/// cancellation that arrives in between is remembered and applied as soon as it is.
final class TaskHandleBox: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var owner: ObjectIdentifier?
        var pendingCancel = false
    }
    private let state: Locked<State>

    /// A handle for a task that runs `owner`, or, without one, whichever operation it is assigned.
    init(owner: ObjectIdentifier? = nil) {
        state = Locked(State(owner: owner))
    }

    /// Stores the task; cancels it at once if its current operation was cancelled meanwhile.
    func set(_ task: Task<Void, Never>) {
        state.withLock { state in
            state.task = task
            if state.pendingCancel { task.cancel() }
        }
    }

    /// Records which operation the task runs now.
    func assign(_ owner: ObjectIdentifier) {
        state.withLock { state in
            state.owner = owner
            state.pendingCancel = false
        }
    }

    /// Cancels the task if it still runs `owner`.
    ///
    /// The task is cancelled under the lock, so it cannot move on to another operation meanwhile;
    /// only the cancellation handlers of `owner`'s own work run there.
    func cancel(owner: ObjectIdentifier) {
        state.withLock { state in
            guard state.owner == owner else { return }
            if let task = state.task { task.cancel() } else { state.pendingCancel = true }
        }
    }
}
