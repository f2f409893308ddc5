import Foundation

/// A value guarded by a lock of its own. (The undo history and journal are the exception:
/// `RunnerRecords` shares the store's lock, so a change and its records commit together.)
@usableFromInline
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written with `lock` held.
    @usableFromInline let lock = FastLock()
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
    func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in try body(&value.pointee) }
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
