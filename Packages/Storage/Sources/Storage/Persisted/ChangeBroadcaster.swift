import Foundation

/// Hands each new value to every open change stream.
final class ChangeBroadcaster<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `continuations` is only touched while holding `lock`.
    private let lock = NSLock()
    private var continuations: [UInt64: AsyncStream<Value>.Continuation] = [:]
    private var nextID: UInt64 = 0

    func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(64))
        lock.lock()
        let id = nextID
        nextID += 1
        continuations[id] = continuation
        lock.unlock()
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    func send(_ value: Value) {
        lock.lock()
        let targets = Array(continuations.values)
        lock.unlock()
        for continuation in targets { continuation.yield(value) }
    }

    func finish() {
        lock.lock()
        let targets = Array(continuations.values)
        continuations.removeAll()
        lock.unlock()
        for continuation in targets { continuation.finish() }
    }

    private func remove(_ id: UInt64) {
        lock.lock()
        continuations[id] = nil
        lock.unlock()
    }
}
