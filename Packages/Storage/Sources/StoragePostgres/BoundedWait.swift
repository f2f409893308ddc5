import Foundation

// A wait for a task that gives up after a limit: what an open and a shutdown use, because a
// postgres-nio pool stopped at the wrong moment can leave its work waiting forever (see
// `PostgresRecordBackend.poolStopPatience`).

/// `task`'s result, or nil when `limit` passes first. Awaiting a task's value cannot be
/// cancelled, so the wait for it runs in a task of its own, left behind if `task` never ends.
func outcome<Value: Sendable, Failure: Error>(
    of task: Task<Value, Failure>, within limit: Duration
) async -> Result<Value, Failure>? {
    let gate = ResumeOnce<Result<Value, Failure>?>()
    let timer = Task {
        try? await Task.sleep(for: limit)
        gate.resume(with: nil)
    }
    let result = await withCheckedContinuation { continuation in
        gate.arm(continuation)
        Task { gate.resume(with: await task.result) }
    }
    timer.cancel()
    return result
}

/// A continuation resumed by the first of several callers, with its value; the others do nothing.
private final class ResumeOnce<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `state` is only touched under `lock`.
    private let lock = NSLock()
    private var state = State.waiting

    private enum State {
        case waiting
        case armed(CheckedContinuation<Value, Never>)
        case early(Value)
        case done
    }

    /// Sets the continuation to resume; resumes it at once when a caller came first.
    func arm(_ continuation: CheckedContinuation<Value, Never>) {
        let value = lock.withLock { () -> Value? in
            switch state {
            case .waiting:
                state = .armed(continuation)
                return nil
            case .early(let value):
                state = .done
                return value
            case .armed, .done: return nil
            }
        }
        if let value { continuation.resume(returning: value) }
    }

    /// Resumes the continuation with `value`, the first time only.
    func resume(with value: Value) {
        let waiting = lock.withLock { () -> CheckedContinuation<Value, Never>? in
            switch state {
            case .waiting:
                state = .early(value)
                return nil
            case .armed(let continuation):
                state = .done
                return continuation
            case .early, .done: return nil
            }
        }
        waiting?.resume(returning: value)
    }
}
