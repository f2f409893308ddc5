import Foundation
import _KitSupport

/// Wakes the sync loop: a local write signals it; the loop waits for a signal or its period.
final class WakeUp: Sendable {
    private struct State {
        var pending = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    func signal() {
        let waiters = state.withLock { state in
            if state.waiters.isEmpty { state.pending = true }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns at the next signal (at once if one came since the last wait), after `duration`,
    /// or when the task is cancelled.
    func wait(upTo duration: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: duration) }
            group.addTask { await self.next() }
            await group.next()
            group.cancelAll()
        }
    }

    private func next() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    // Checked under the lock the cancellation handler takes: either it ran before
                    // (and the task is cancelled now) or it will find this waiter.
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiters.append(waiter)
                    return false
                }
                if now { waiter.resume() }
            }
        } onCancel: {
            let waiters = state.withLock { state in
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }
}
