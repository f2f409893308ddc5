import Foundation

/// A value guarded by a lock, for state set once while the backend opens and read by every write.
///
/// `Mutex` from `Synchronization` needs macOS 15 and iOS 18; this box works back to the
/// platforms the package supports.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    var current: Value {
        withLock { $0 }
    }
}
