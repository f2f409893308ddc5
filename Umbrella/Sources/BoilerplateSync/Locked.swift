import Foundation

/// A value behind a lock.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `stored` is only touched while holding `lock`, and `Value` is Sendable, so a
    // value read out of it may cross into another concurrency domain.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&stored) }
    }
}
