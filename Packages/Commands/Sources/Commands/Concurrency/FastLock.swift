import Foundation

/// A mutex without `NSLock`'s dynamic dispatch: the store's lock, taken twice per command.
///
/// Not recursive, like `NSLock`.
@usableFromInline
final class FastLock: @unchecked Sendable {
    // @unchecked: the mutex is the synchronisation; it is only used through `pthread_mutex_*`.
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

    @inlinable
    func lock() {
        pthread_mutex_lock(mutex)
    }

    @inlinable
    func unlock() {
        pthread_mutex_unlock(mutex)
    }
}
