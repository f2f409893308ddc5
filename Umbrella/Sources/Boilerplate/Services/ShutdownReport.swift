/// What happened when ``ServiceRegistry/run(stopTimeout:signals:)`` shut its services down.
///
/// Every running service is asked to stop, dependents before their dependencies, each within
/// its timeout: one that does not stop in time is named in ``timedOut`` and the others are
/// still stopped after it.
public struct ShutdownReport: Sendable {
    /// Why the shutdown began.
    public enum Trigger: Sendable, Equatable, CustomStringConvertible {
        /// The process received this signal (`SIGTERM`, `SIGINT`…).
        case signal(Int32)
        /// ``ServiceRegistry/requestShutdown()`` was called.
        case requested
        /// The task running ``ServiceRegistry/run(stopTimeout:signals:)`` was cancelled.
        case cancelled
        /// This service's ``AppService/run()`` threw (or its start, when `run` stops the services
        /// it had started before throwing).
        case serviceFailed(String)

        /// The trigger in words, such as `signal 15`.
        public var description: String {
            switch self {
            case .signal(let number): "signal \(number)"
            case .requested: "shutdown requested"
            case .cancelled: "task cancelled"
            case .serviceFailed(let name): "service '\(name)' failed"
            }
        }
    }

    /// Why the shutdown began.
    public var trigger: Trigger
    /// The services that finished stopping within their timeout, in the order they stopped
    /// (dependents first). A service whose `stop` threw is here too, and its error in ``errors``.
    public var stopped: [String]
    /// The services that did not finish stopping within their timeout, in the order they were
    /// asked. The registry no longer counts them as running; their `stop` may still be going on.
    public var timedOut: [String]
    /// What went wrong along the way: ``ServiceError/runFailed(_:underlying:)`` for a `run` that
    /// threw (cancellation aside) and ``ServiceError/stopFailed(_:underlying:)`` for a `stop` that threw.
    public var errors: [ServiceError]

    /// Creates a report; the registry makes them, tests and bridges may too.
    public init(trigger: Trigger, stopped: [String] = [], timedOut: [String] = [], errors: [ServiceError] = []) {
        self.trigger = trigger
        self.stopped = stopped
        self.timedOut = timedOut
        self.errors = errors
    }

    /// Whether every service stopped in time and nothing threw.
    public var isClean: Bool { timedOut.isEmpty && errors.isEmpty }

    /// One line per fact, for a server's last log lines.
    public var summary: String {
        var lines = ["Shutdown (\(trigger)): stopped \(stopped.isEmpty ? "nothing" : stopped.joined(separator: ", "))."]
        if !timedOut.isEmpty { lines.append("Did not stop in time: \(timedOut.joined(separator: ", ")).") }
        lines += errors.map(\.message)
        return lines.joined(separator: "\n")
    }
}
