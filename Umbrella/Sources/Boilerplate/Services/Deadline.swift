/// Waits for a task's value for at most a given time, without blocking a thread.
enum Deadline {
    /// The task's value, or nil when `timeout` passed first (the task is then cancelled and left
    /// to finish on its own: a service stuck in `stop` cannot be forced).
    static func value<T: Sendable>(of work: Task<T, Never>, within timeout: Duration) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let pending = Locked<CheckedContinuation<T?, Never>?>(continuation)
            let finish: @Sendable (T?) -> Void = { value in
                pending.withLock { waiting in
                    waiting?.resume(returning: value)
                    waiting = nil
                }
            }
            let timer = Task {
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    return  // cancelled: the work finished first
                }
                finish(nil)
                work.cancel()
            }
            Task {
                let value = await work.value
                finish(value)
                timer.cancel()
            }
        }
    }
}
