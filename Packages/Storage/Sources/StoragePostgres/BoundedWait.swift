// A wait for a task that gives up after a limit: what an open and a shutdown use, because a
// postgres-nio pool stopped at the wrong moment can leave its work waiting forever (see
// `PostgresRecordBackend.poolStopPatience`). The umbrella's `Deadline` is the same wait for
// services; this package cannot depend on the umbrella.

/// `task`'s result, or nil when `limit` passes first. Awaiting a task's value cannot be
/// cancelled, so the wait for it runs in a task of its own, left behind if `task` never ends;
/// the caller decides whether to cancel `task`.
func outcome<Value: Sendable, Failure: Error>(
    of task: Task<Value, Failure>, within limit: Duration
) async -> Result<Value, Failure>? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>?, Never>) in
        // Whichever of the two tasks below comes first resumes the continuation; the other finds
        // it gone.
        let pending = Locked<CheckedContinuation<Result<Value, Failure>?, Never>?>(continuation)
        let finish: @Sendable (Result<Value, Failure>?) -> Void = { result in
            pending.withLock { waiting in
                waiting?.resume(returning: result)
                waiting = nil
            }
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
