#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#endif

/// A value guarded by a lock: the one place this module keeps shared mutable state.
///
/// `Mutex` from `Synchronization` would do, but it needs macOS 15 / iOS 18. The lock lives in
/// the same allocation as the value (an `os_unfair_lock` on Apple platforms, a
/// `pthread_mutex_t` elsewhere), because operations create two of these each.
final class Locked<State>: @unchecked Sendable {
    #if canImport(Darwin)
        typealias Primitive = os_unfair_lock
    #else
        typealias Primitive = pthread_mutex_t
    #endif

    private final class Storage: ManagedBuffer<State, Primitive> {
        deinit {
            #if !canImport(Darwin)
                _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
            #endif
        }
    }

    private let storage: ManagedBuffer<State, Primitive>

    init(_ state: State) {
        storage = Storage.create(minimumCapacity: 1) { _ in state }
        storage.withUnsafeMutablePointerToElements { lock in
            #if canImport(Darwin)
                lock.initialize(to: os_unfair_lock())
            #else
                lock.initialize(to: pthread_mutex_t())
                _ = pthread_mutex_init(lock, nil)
            #endif
        }
    }

    /// Runs `body` with exclusive access to the state. Never call out to user code inside.
    @inline(__always)
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, lock in
            #if canImport(Darwin)
                os_unfair_lock_lock(lock)
                defer { os_unfair_lock_unlock(lock) }
            #else
                _ = pthread_mutex_lock(lock)
                defer { _ = pthread_mutex_unlock(lock) }
            #endif
            return try body(&state.pointee)
        }
    }
}

/// A handle on the task that runs an operation, shared by the operations a runner's worker runs in turn.
///
/// A cancellation names the operation it is meant for, so a late one never hits the next
/// operation on the same task. The task is created before its handle can be stored, so a
/// cancellation that arrives in between is remembered and applied as soon as it is.
final class TaskHandleBox: @unchecked Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var owner: ObjectIdentifier?
        var pendingCancel = false
    }
    private let state = Locked(State())

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
    func cancel(owner: ObjectIdentifier) {
        state.withLock { state in
            guard state.owner == owner else { return }
            if let task = state.task { task.cancel() } else { state.pendingCancel = true }
        }
    }
}
