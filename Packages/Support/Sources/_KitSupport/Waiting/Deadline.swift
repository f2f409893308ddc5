/// Waits for a task for at most a given time, without blocking a thread: what a shutdown or an
/// open uses when the work it waits for may never end (a service stuck in `stop`, a connection
/// pool stopped at the wrong moment).
public enum Deadline {
    /// `task`'s result, or nil when `limit` passes first.
    ///
    /// Awaiting a task cannot be cancelled, so the wait for it runs in a task of its own, left
    /// behind if `task` never ends; `task` is not cancelled: the caller decides (a task that
    /// ignores cancellation cannot be forced either way).
    public static func result<Success: Sendable, Failure: Error>(
        of task: Task<Success, Failure>, within limit: Duration
    ) async -> Result<Success, Failure>? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<Success, Failure>?, Never>) in
            // The continuation exists before either task below starts, so whichever comes first
            // resumes it and the other finds it gone: no state but this one optional.
            let pending = Locked<CheckedContinuation<Result<Success, Failure>?, Never>?>(continuation)
            let finish: @Sendable (Result<Success, Failure>?) -> Void = { result in
                pending.withLock { $0.take() }?.resume(returning: result)
            }
            let timer = Task {
                do {
                    try await Task.sleep(for: limit)
                } catch {
                    return  // cancelled: the task finished first
                }
                finish(nil)
            }
            Task {
                finish(await task.result)
                timer.cancel()
            }
        }
    }

    /// `task`'s value, or nil when `limit` passes first; `task` is left running (see
    /// ``result(of:within:)``).
    public static func value<Success: Sendable>(
        of task: Task<Success, Never>, within limit: Duration
    ) async
        -> Success?
    {
        switch await result(of: task, within: limit) {
        case .success(let value): value
        case nil: nil
        }
    }
}
