import Foundation

#if canImport(Darwin)
    import os
#elseif canImport(Synchronization)
    import Synchronization
#endif

/// The store's mutex, taken twice per command, so its uncontended path must be a few
/// instructions: `os_unfair_lock` on Apple platforms; elsewhere a benaphore, an atomic count
/// of the threads that hold or want the lock, with a semaphore the latecomers sleep on.
/// Uncontended, locking and unlocking are one atomic add each, where `pthread_mutex_lock` and
/// `pthread_mutex_unlock` cost about 50 instructions more a pair on Linux. (Not the standard
/// library's `Mutex`: its futex calls are invisible to ThreadSanitizer, which then reports
/// every access it guards as a race, in our tests and in our users'.)
///
/// Not recursive, like `NSLock`.
@usableFromInline
final class FastLock: @unchecked Sendable {
    // @unchecked: the lock is the synchronisation.
    #if canImport(Darwin)
        @usableFromInline let unfair: UnsafeMutablePointer<os_unfair_lock>

        init() {
            unfair = .allocate(capacity: 1)
            unfair.initialize(to: os_unfair_lock())
        }

        deinit {
            unfair.deinitialize(count: 1)
            unfair.deallocate()
        }

        /// Takes the lock. Never call it with the lock already held.
        @inlinable
        @inline(__always)
        func lock() {
            os_unfair_lock_lock(unfair)
        }

        /// Gives the lock up.
        @inlinable
        @inline(__always)
        func unlock() {
            os_unfair_lock_unlock(unfair)
        }
    #elseif canImport(Synchronization)
        /// The threads that hold the lock or wait for it.
        @usableFromInline let contenders = Atomic<Int>(0)
        /// Where the waiting threads sleep; each unlock with a waiter wakes one.
        @usableFromInline let waiters: UnsafeMutablePointer<sem_t>

        init() {
            waiters = .allocate(capacity: 1)
            sem_init(waiters, 0, 0)
        }

        deinit {
            sem_destroy(waiters)
            waiters.deallocate()
        }

        /// Takes the lock. Never call it with the lock already held.
        @inlinable
        @inline(__always)
        func lock() {
            if contenders.wrappingAdd(1, ordering: .acquiring).oldValue > 0 {
                // Someone holds it: sleep until their unlock hands it over (EINTR: again).
                while sem_wait(waiters) != 0 {
                    precondition(errno == EINTR, "Commands: waiting for the store's lock failed (errno \(errno)).")
                }
            }
        }

        /// Gives the lock up, waking one waiter if there is any.
        @inlinable
        @inline(__always)
        func unlock() {
            if contenders.wrappingSubtract(1, ordering: .releasing).oldValue > 1 { sem_post(waiters) }
        }
    #else
        @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

        init() {
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
            mutex.deallocate()
        }

        /// Takes the lock. Never call it with the lock already held.
        @inlinable
        @inline(__always)
        func lock() {
            pthread_mutex_lock(mutex)
        }

        /// Gives the lock up.
        @inlinable
        @inline(__always)
        func unlock() {
            pthread_mutex_unlock(mutex)
        }
    #endif

    /// Runs `body` with the lock held. Never call it with the lock already held.
    @inlinable
    @inline(__always)
    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
