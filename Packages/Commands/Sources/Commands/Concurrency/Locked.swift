import Foundation

/// A value guarded by a lock: the one way shared mutable state is kept in this module.
@usableFromInline
final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    /// Behind a pointer: no dynamic exclusivity check per access; the lock is the check.
    @usableFromInline let value: UnsafeMutablePointer<Value>

    @usableFromInline init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value.pointee)
    }
}

/// Identifies the calling thread, to tell re-entrant calls from calls on other threads.
@usableFromInline
enum CurrentThread {
    @usableFromInline static var id: pthread_t { pthread_self() }

    @usableFromInline static func isSame(_ other: pthread_t?) -> Bool {
        guard let other else { return false }
        return pthread_equal(other, pthread_self()) != 0
    }
}
