import Foundation

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

/// How a pass of the sync loop ended.
enum PassOutcome: Equatable {
    /// A good round, a pause, or no round (paused).
    case done
    /// A failed round; `serverAskedToWait` is the server's `Retry-After`, when it sent one.
    case failed(serverAskedToWait: Duration?)
}

/// The loop's wait after a pass: the period after a good one; after failed ones
/// ``SyncEngineConfiguration/failureBackoff``, doubled per further failure, never over the period,
/// unless the server asked for longer (`Retry-After`, honoured up to a day).
struct LoopDelay {
    private let backoff: Duration
    private let interval: Duration
    private var failures = 0

    init<Record>(_ configuration: SyncEngineConfiguration<Record>) {
        backoff = configuration.failureBackoff
        interval = configuration.interval
    }

    /// The longest `Retry-After` the loop honours.
    static let longestServerWait = Duration.seconds(86_400)

    mutating func after(_ outcome: PassOutcome) -> Duration {
        guard case .failed(let serverAskedToWait) = outcome else {
            failures = 0
            return interval
        }
        failures = min(failures + 1, 30)
        let own = min(interval, backoff * (1 << (failures - 1)))
        return max(own, min(serverAskedToWait ?? .zero, Self.longestServerWait))
    }
}
