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
/// `Mutex` from `Synchronization` would do, but it needs macOS 15 / iOS 18. The lock and the
/// value share one allocation (an `os_unfair_lock` on Apple platforms, a `pthread_mutex_t`
/// elsewhere), and `Locked` is a struct over it, so a lock costs one allocation: every
/// operation creates one.
struct Locked<State>: @unchecked Sendable {
    #if canImport(Darwin)
        typealias Primitive = os_unfair_lock
    #else
        typealias Primitive = pthread_mutex_t
    #endif

    /// The value in the header, the lock in the (single) element.
    final class Storage: ManagedBuffer<State, Primitive> {
        deinit {
            #if !canImport(Darwin)
                _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
            #endif
        }
    }

    /// Shared by every copy: copies of a `Locked` are the same lock.
    private let storage: Storage

    /// A lock around `state`, which is built in place (an autoclosure), not copied in.
    init(_ state: @autoclosure () -> State) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in state() }
        storage = unsafeDowncast(buffer, to: Storage.self)
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
