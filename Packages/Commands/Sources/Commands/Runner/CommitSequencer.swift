import _KitSupport

/// Hands out tickets in submission order and lets async commands commit only in that order.
///
/// A command whose slow part finishes early waits until every command submitted before it has
/// committed, failed or been cancelled. Waiting is cancellable.
///
/// A command run (and awaited) from inside another async command's `execute` on the same
/// runner is that command's guest: it may also commit while its host holds the turn. Without
/// that, the host would wait for its guest, and the guest for its host to finish: a deadlock.
final class CommitSequencer: Sendable {
    struct Waiter {
        var continuation: CheckedContinuation<Void, any Error>
        /// The tickets of the commands this one runs inside, outermost first.
        var hosts: [UInt64]
    }

    struct State {
        var nextTicket: UInt64 = 0
        var nextTurn: UInt64 = 0
        var finished: Set<UInt64> = []
        var waiters: [UInt64: Waiter] = [:]
        /// The waiters that have hosts: the only ones a turn can wake besides the next in line.
        var guests: Set<UInt64> = []

        func isReady(_ ticket: UInt64, hosts: [UInt64]) -> Bool {
            ticket <= nextTurn || hosts.contains(nextTurn)
        }
    }

    /// The commands whose `execute` is running in the current task, with this sequencer.
    struct Hosts: Sendable {
        var sequencer: ObjectIdentifier
        var tickets: [UInt64]
    }

    @TaskLocal static var hosts: Hosts?

    let state = Locked(State())

    /// The tickets of the commands of this sequencer that the current task runs inside.
    var currentHosts: [UInt64] {
        guard let hosts = Self.hosts, hosts.sequencer == ObjectIdentifier(self) else { return [] }
        return hosts.tickets
    }

    /// Runs `body` as the `execute` of the command holding `ticket` inside `hosts`: commands
    /// it submits and awaits are its guests.
    func runAsHost<T>(
        _ ticket: UInt64, inside hosts: [UInt64], isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> T {
        try await Self.$hosts.withValue(Hosts(sequencer: ObjectIdentifier(self), tickets: hosts + [ticket])) {
            try await body()
        }
    }

    /// A ticket; take it synchronously when the command is submitted.
    func take() -> UInt64 {
        state.withLock { state in
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
    }

    /// Returns when every earlier ticket has finished, or when one of `hosts` holds the turn
    /// (at once if this ticket was released). Throws `CancellationError` if the task is
    /// cancelled first; the caller must still call ``finish(_:)``.
    func waitForTurn(_ ticket: UInt64, hosts: [UInt64] = []) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready: Bool? = state.withLock { state in
                    if state.isReady(ticket, hosts: hosts) { return true }
                    if Task.isCancelled { return false }
                    state.waiters[ticket] = Waiter(continuation: continuation, hosts: hosts)
                    if !hosts.isEmpty { state.guests.insert(ticket) }
                    return nil
                }
                switch ready {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.guests.remove(ticket)
                return state.waiters.removeValue(forKey: ticket)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Marks `ticket` done and wakes the commands whose turn it is now (the next in line and
    /// its guests). Calling it twice is harmless.
    func finish(_ ticket: UInt64) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard ticket >= state.nextTurn else { return [] }
            state.finished.insert(ticket)
            let turn = state.nextTurn
            while state.finished.remove(state.nextTurn) != nil {
                state.nextTurn += 1
            }
            guard state.nextTurn != turn else { return [] }
            // A waiter without hosts registered while its ticket was ahead of the turn, so only
            // the one whose ticket the turn reached is ready; guests are few and checked apart.
            var tickets = [state.nextTurn]
            tickets += state.guests.filter { guest in
                guest != state.nextTurn && state.waiters[guest].map { state.isReady(guest, hosts: $0.hosts) } ?? false
            }
            return tickets.compactMap { ticket in
                state.guests.remove(ticket)
                return state.waiters.removeValue(forKey: ticket)?.continuation
            }
        }
        for continuation in ready { continuation.resume() }
    }
}
