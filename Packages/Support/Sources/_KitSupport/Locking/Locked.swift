/// A value behind a lock, the two in one allocation: the kit's one box for shared mutable state.
///
/// Copies of a `Locked` share the value and the lock (it is a reference). It is `Sendable` when
/// its value is, so a value read out of it may cross into another concurrency domain.
///
/// ```swift
/// let hits = Locked(0)
/// hits.withLock { $0 += 1 }
/// let seen = hits.withLock { $0 }
/// ```
public struct Locked<Value> {
    @usableFromInline let storage: _LockedStorage<Value>

    /// A lock around `value`.
    @inlinable
    public init(_ value: Value) {
        let buffer = _LockedStorage<Value>.create(minimumCapacity: 1) { _ in value }
        storage = unsafeDowncast(buffer, to: _LockedStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { _LockPrimitive.initialize($0) }
    }

    /// Runs `body` with the lock held and exclusive access to the value, and returns its result.
    ///
    /// Not re-entrant: `body` must not take the same lock again, and should not call out to code
    /// that might (a user's closure, a continuation's resumption that runs inline).
    @inlinable @inline(__always)
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try storage.withUnsafeMutablePointers { (value, lock) throws(Failure) -> Result in
            _LockPrimitive.lock(lock)
            defer { _LockPrimitive.unlock(lock) }
            return try body(&value.pointee)
        }
    }
}

extension Locked: @unchecked Sendable where Value: Sendable {}
// @unchecked: the value is only reached through `withLock`, with the lock held.

/// The allocation behind a ``Locked``: the value in the header, the lock in the one element.
/// (ManagedBuffer destroys the header itself; the element is the subclass's to destroy.)
@usableFromInline
final class _LockedStorage<Value>: ManagedBuffer<Value, _LockPrimitive> {
    deinit {
        withUnsafeMutablePointerToElements { _LockPrimitive.deinitialize($0) }
    }
}

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
