/// The kit's mutex on its own, for a type that guards several stored properties with one lock
/// (the bus's subscriptions, the command store's model with its history and journal) and takes
/// and gives it up around work of its own. State kept in one value belongs in ``Locked``.
///
/// Copies share the lock. Not recursive: never take it while holding it.
public struct FastLock: @unchecked Sendable {
    // @unchecked: the lock is the synchronisation; the buffer holds nothing else.
    @usableFromInline let storage: _LockedStorage<Void>

    /// A new lock, not held.
    @inlinable
    public init() {
        let buffer = _LockedStorage<Void>.create(minimumCapacity: 1) { _ in () }
        storage = unsafeDowncast(buffer, to: _LockedStorage<Void>.self)
        storage.withUnsafeMutablePointerToElements { _LockPrimitive.initialize($0) }
    }

    /// Takes the lock, waiting while another thread holds it. Never call it with the lock held.
    @inlinable @inline(__always)
    public func lock() {
        storage.withUnsafeMutablePointerToElements { _LockPrimitive.lock($0) }
    }

    /// Gives the lock up, waking one thread that waits for it.
    @inlinable @inline(__always)
    public func unlock() {
        storage.withUnsafeMutablePointerToElements { _LockPrimitive.unlock($0) }
    }

    /// Runs `body` with the lock held, and returns its result. Never call it with the lock held.
    @inlinable @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
