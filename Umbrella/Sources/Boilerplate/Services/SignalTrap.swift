import Dispatch
import Foundation
import _KitSupport

/// Turns Unix signals into calls of a handler, through Dispatch signal sources (no thread
/// waits for them), for as long as it is not cancelled.
final class SignalTrap: @unchecked Sendable {
    // Sources and the saved handlers are set in `init` and only read afterwards.
    private let sources: [any DispatchSourceSignal]
    #if canImport(Darwin)
        private let previous: [(Int32, sig_t?)]
    #endif
    private static let queue = DispatchQueue(label: "Boilerplate.SignalTrap")

    /// Starts trapping `signals`; returns once every source is registered, so a signal sent
    /// after this returns is never missed.
    init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) async {
        let unique = signals.reduce(into: [Int32]()) { if !$0.contains($1) { $0.append($1) } }
        #if canImport(Darwin)
            // Dispatch sees signals through kqueue, beside the process's handlers: ignore the
            // default action (termination) so the source gets the signal. On Linux Dispatch
            // handles it itself.
            previous = unique.map { ($0, signal($0, SIG_IGN)) }
        #endif
        sources = unique.map { DispatchSource.makeSignalSource(signal: $0, queue: Self.queue) }
        for (number, source) in zip(unique, sources) {
            source.setEventHandler { handler(number) }
            await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
                source.setRegistrationHandler { registered.resume() }
                source.resume()
            }
        }
    }

    /// Stops trapping. On Apple platforms the earlier handlers are restored; on Linux Dispatch
    /// keeps the handler it installed (restoring ours could break another source for the same
    /// signal), so the signal is then swallowed.
    func cancel() {
        for source in sources { source.cancel() }
        #if canImport(Darwin)
            for (number, handler) in previous { signal(number, handler) }
        #endif
    }
}

/// Fires once, with the first reason given; waiters resume with that reason.
final class ShutdownTrigger: Sendable {
    private struct State {
        var reason: ShutdownReport.Trigger?
        var waiters: [CheckedContinuation<ShutdownReport.Trigger, Never>] = []
    }
    private let state = Locked(State())

    /// Fires with `reason` unless it fired already; returns whether this call fired it.
    @discardableResult
    func fire(_ reason: ShutdownReport.Trigger) -> Bool {
        let waiters: [CheckedContinuation<ShutdownReport.Trigger, Never>]? = state.withLock { state in
            guard state.reason == nil else { return nil }
            state.reason = reason
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: reason) }
        return true
    }

    /// The reason it fired with, once it has.
    func wait() async -> ShutdownReport.Trigger {
        await withCheckedContinuation { continuation in
            let fired = state.withLock { state -> ShutdownReport.Trigger? in
                if let reason = state.reason { return reason }
                state.waiters.append(continuation)
                return nil
            }
            if let fired { continuation.resume(returning: fired) }
        }
    }
}
