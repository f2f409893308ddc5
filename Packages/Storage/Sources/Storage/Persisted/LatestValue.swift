import Foundation

/// The newest value of a ``Persisted``, readable from any thread without waiting for the actor.
final class LatestValue<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `stored` is only touched while holding `lock`.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
