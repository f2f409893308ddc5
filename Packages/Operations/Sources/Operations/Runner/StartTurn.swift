import _KitSupport

/// Hands out turns so that start callbacks run in the order a runner admitted their operations.
///
/// Only operations with start callbacks take a ticket; the others cannot be seen starting.
final class StartSequencer: Sendable {
    private struct State {
        var issued = 0
        var next = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }
    private let state = Locked(State())

    /// The next ticket. Call in admission order, and make sure every ticket is passed.
    func issue() -> StartTurn {
        StartTurn(
            sequencer: self,
            ticket: state.withLock { state in
                defer { state.issued += 1 }
                return state.issued
            })
    }

    fileprivate func wait(for ticket: Int) async {
        if state.withLock({ $0.next == ticket }) { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.next == ticket { return true }
                state.waiters[ticket] = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    fileprivate func pass(_ ticket: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.next = ticket + 1
            return state.waiters.removeValue(forKey: ticket + 1)
        }
        waiter?.resume()
    }
}

/// One operation's turn to run its start callbacks.
struct StartTurn: Sendable {
    let sequencer: StartSequencer
    let ticket: Int

    /// Suspends until every operation admitted earlier ran its start callbacks.
    func wait() async { await sequencer.wait(for: ticket) }

    /// Lets the next operation start.
    func pass() { sequencer.pass(ticket) }
}
