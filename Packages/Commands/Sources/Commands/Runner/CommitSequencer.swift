/// Hands out tickets in submission order and lets async commands commit only in that order.
///
/// A command whose slow part finishes early waits until every command submitted before it has
/// committed, failed or been cancelled. Waiting is cancellable.
final class CommitSequencer: Sendable {
    struct State {
        var nextTicket: UInt64 = 0
        var nextTurn: UInt64 = 0
        var finished: Set<UInt64> = []
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    }

    let state = Locked(State())

    /// A ticket; take it synchronously when the command is submitted.
    func take() -> UInt64 {
        state.withLock { state in
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
    }

    /// Returns when every earlier ticket has finished (at once if this ticket was released). Throws `CancellationError` if the task is
    /// cancelled first; the caller must still call ``finish(_:)``.
    func waitForTurn(_ ticket: UInt64) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready: Bool? = state.withLock { state in
                    if ticket <= state.nextTurn { return true }
                    if Task.isCancelled { return false }
                    state.waiters[ticket] = continuation
                    return nil
                }
                switch ready {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: ticket) }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Marks `ticket` done and wakes the next command in line. Calling it twice is harmless.
    func finish(_ ticket: UInt64) {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard ticket >= state.nextTurn else { return nil }
            state.finished.insert(ticket)
            while state.finished.remove(state.nextTurn) != nil {
                state.nextTurn += 1
            }
            return state.waiters.removeValue(forKey: state.nextTurn)
        }
        next?.resume()
    }
}
