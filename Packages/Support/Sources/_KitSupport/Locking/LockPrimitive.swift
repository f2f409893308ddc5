#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#endif

#if !canImport(Darwin) && canImport(Synchronization)
    import Synchronization
#endif

/// The one mutex of the kit, laid out in place: it lives inside the allocation of whatever it
/// guards (``Locked``'s buffer, ``FastLock``'s), so a lock costs no allocation of its own.
///
/// Uncontended, taking and giving it up must be a few instructions (the bus takes it once per
/// trigger, the command store twice per command): `os_unfair_lock` on Apple platforms; on Linux
/// a benaphore, an atomic count of the threads that hold or want the lock with a semaphore the
/// latecomers sleep on, so that locking and unlocking are one atomic add each where
/// `pthread_mutex_lock` and `pthread_mutex_unlock` are two calls that check the mutex's kind
/// first; a `pthread_mutex_t` elsewhere. Not the standard library's `Mutex`: it needs macOS 15,
/// and its futex calls are invisible to ThreadSanitizer, which would then report every access it
/// guards as a race (the benaphore's atomics and semaphore calls are both seen). Not recursive.
///
/// Use it through ``Locked`` or ``FastLock``; its address must never change, so it is only ever
/// reached through the pointer they hold.
public struct _LockPrimitive: ~Copyable {
    #if canImport(Darwin)
        @usableFromInline var unfair = os_unfair_lock()
    #elseif canImport(Synchronization)
        /// The threads that hold the lock or wait for it.
        @usableFromInline let contenders = Atomic<Int>(0)
        /// Where waiting threads sleep; each unlock that sees a waiter wakes one.
        @usableFromInline var waiters = sem_t()
    #else
        @usableFromInline var mutex = pthread_mutex_t()
    #endif

    @usableFromInline init() {}

    /// Makes the lock at `primitive` ready: the memory is uninitialised before.
    @usableFromInline
    static func initialize(_ primitive: UnsafeMutablePointer<_LockPrimitive>) {
        primitive.initialize(to: _LockPrimitive())
        #if canImport(Darwin)
        #elseif canImport(Synchronization)
            let result = sem_init(&primitive.pointee.waiters, 0, 0)
            precondition(result == 0, "_KitSupport: sem_init failed (errno \(errno))")
        #else
            let result = pthread_mutex_init(&primitive.pointee.mutex, nil)
            precondition(result == 0, "_KitSupport: pthread_mutex_init failed with \(result)")
        #endif
    }

    /// Releases what ``initialize(_:)`` made; the lock must not be held.
    @usableFromInline
    static func deinitialize(_ primitive: UnsafeMutablePointer<_LockPrimitive>) {
        #if canImport(Darwin)
        #elseif canImport(Synchronization)
            sem_destroy(&primitive.pointee.waiters)
        #else
            pthread_mutex_destroy(&primitive.pointee.mutex)
        #endif
        primitive.deinitialize(count: 1)
    }

    /// Takes the lock at `primitive`. Never call it with the lock already held.
    @inlinable @inline(__always)
    static func lock(_ primitive: UnsafeMutablePointer<_LockPrimitive>) {
        #if canImport(Darwin)
            os_unfair_lock_lock(&primitive.pointee.unfair)
        #elseif canImport(Synchronization)
            if primitive.pointee.contenders.wrappingAdd(1, ordering: .acquiring).oldValue > 0 {
                // Someone holds it: sleep until their unlock hands it over (EINTR: again).
                while sem_wait(&primitive.pointee.waiters) != 0 {
                    precondition(errno == EINTR, "_KitSupport: waiting for a lock failed (errno \(errno))")
                }
            }
        #else
            pthread_mutex_lock(&primitive.pointee.mutex)
        #endif
    }

    /// Gives the lock at `primitive` up, waking one waiter if there is any.
    @inlinable @inline(__always)
    static func unlock(_ primitive: UnsafeMutablePointer<_LockPrimitive>) {
        #if canImport(Darwin)
            os_unfair_lock_unlock(&primitive.pointee.unfair)
        #elseif canImport(Synchronization)
            if primitive.pointee.contenders.wrappingSubtract(1, ordering: .releasing).oldValue > 1 {
                sem_post(&primitive.pointee.waiters)
            }
        #else
            pthread_mutex_unlock(&primitive.pointee.mutex)
        #endif
    }
}
