#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

#if !canImport(Darwin) && canImport(Synchronization)
    import Synchronization
#endif

/// The bus's mutex, taken once per trigger and twice per watch-and-cancel, so its uncontended
/// path must be a few instructions: `os_unfair_lock` on Apple platforms; on Linux a benaphore,
/// an atomic count of the threads that hold or want the lock, with a semaphore the latecomers
/// sleep on (uncontended, locking and unlocking are one atomic add each, where
/// `pthread_mutex_lock` and `pthread_mutex_unlock` are two calls that check the mutex's kind
/// first); a `pthread_mutex_t` elsewhere. Not the standard library's `Mutex`: it needs macOS 15,
/// and its futex calls are invisible to ThreadSanitizer, which would then report every access
/// it guards as a race. Not recursive.
@usableFromInline
final class Lock: @unchecked Sendable {
    #if canImport(Darwin)
        @usableFromInline let primitive: UnsafeMutablePointer<os_unfair_lock>

        @usableFromInline
        init() {
            primitive = .allocate(capacity: 1)
            primitive.initialize(to: os_unfair_lock())
        }

        deinit {
            primitive.deinitialize(count: 1)
            primitive.deallocate()
        }

        @inlinable @inline(__always)
        func lock() {
            os_unfair_lock_lock(primitive)
        }

        @inlinable @inline(__always)
        func unlock() {
            os_unfair_lock_unlock(primitive)
        }
    #elseif canImport(Synchronization)
        /// The threads that hold the lock or wait for it.
        @usableFromInline let contenders = Atomic<Int>(0)
        /// Where waiting threads sleep; each unlock that sees a waiter wakes one.
        @usableFromInline let waiters: UnsafeMutablePointer<sem_t>

        @usableFromInline
        init() {
            waiters = .allocate(capacity: 1)
            let result = sem_init(waiters, 0, 0)
            precondition(result == 0, "EventBus: sem_init failed (errno \(errno))")
        }

        deinit {
            sem_destroy(waiters)
            waiters.deallocate()
        }

        @inlinable @inline(__always)
        func lock() {
            if contenders.wrappingAdd(1, ordering: .acquiring).oldValue > 0 {
                // Someone holds it: sleep until their unlock hands it over (EINTR: again).
                while sem_wait(waiters) != 0 {
                    precondition(errno == EINTR, "EventBus: waiting for the bus lock failed (errno \(errno))")
                }
            }
        }

        @inlinable @inline(__always)
        func unlock() {
            if contenders.wrappingSubtract(1, ordering: .releasing).oldValue > 1 { sem_post(waiters) }
        }
    #else
        @usableFromInline let primitive: UnsafeMutablePointer<pthread_mutex_t>

        @usableFromInline
        init() {
            primitive = .allocate(capacity: 1)
            primitive.initialize(to: pthread_mutex_t())
            let result = pthread_mutex_init(primitive, nil)
            precondition(result == 0, "EventBus: pthread_mutex_init failed with \(result)")
        }

        deinit {
            pthread_mutex_destroy(primitive)
            primitive.deinitialize(count: 1)
            primitive.deallocate()
        }

        @inlinable @inline(__always)
        func lock() {
            pthread_mutex_lock(primitive)
        }

        @inlinable @inline(__always)
        func unlock() {
            pthread_mutex_unlock(primitive)
        }
    #endif

    @inlinable @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value behind a lock, for the small pieces of shared state outside the bus itself.
final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }

    var current: Value { lock.withLock { value } }
}
