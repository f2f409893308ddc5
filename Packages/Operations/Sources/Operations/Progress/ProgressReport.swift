/// How far an operation has come: a fraction from 0 to 1 and what it is doing.
public struct ProgressReport: Sendable, Hashable {
    /// The fraction done, clamped to `0...1`.
    public var fraction: Double
    /// What the operation is doing, for a person; may be empty.
    public var message: String

    /// Creates a report; the fraction is clamped to `0...1`, and NaN counts as 0.
    public init(fraction: Double, message: String = "") {
        self.fraction = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        self.message = message
    }
}

/// What an operation's work uses to report progress.
public struct ProgressReporter: Sendable {
    let lifecycle: OperationLifecycle?

    init(_ lifecycle: OperationLifecycle?) {
        self.lifecycle = lifecycle
    }

    /// A reporter that goes nowhere, for calling progress-reporting work outside an operation.
    public static let discarding = ProgressReporter(nil)

    /// Reports the fraction done and what is happening to everyone observing the operation's progress.
    /// - Parameters:
    ///   - fraction: From 0 to 1; values outside are clamped.
    ///   - message: What the operation is doing, for a person.
    public func report(_ fraction: Double, _ message: String = "") {
        lifecycle?.publish(ProgressReport(fraction: fraction, message: message))
    }
}

extension OperationLifecycle {
    func publish(_ report: ProgressReport) {
        let observers = state.withLock { state -> [AsyncStream<ProgressReport>.Continuation] in
            if case .finished = state.phase { return [] }
            state.latestProgress = report
            return Array(state.progressObservers.values)
        }
        for observer in observers { observer.yield(report) }
    }

    /// A stream of progress reports: the latest one first, then each new one, until the operation finishes.
    func progressUpdates() -> AsyncStream<ProgressReport> {
        let (stream, continuation) = AsyncStream.makeStream(of: ProgressReport.self)
        let (latest, registered, id) = state.withLock { state -> (ProgressReport?, Bool, Int) in
            if case .finished = state.phase { return (state.latestProgress, false, 0) }
            let id = state.nextObserverID
            state.nextObserverID += 1
            state.progressObservers[id] = continuation
            return (state.latestProgress, true, id)
        }
        if let latest { continuation.yield(latest) }
        if registered {
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.progressObservers.removeValue(forKey: id) }
            }
        } else {
            continuation.finish()
        }
        return stream
    }
}

extension StatefulOperation {
    /// The operation's progress as it reports it: the latest report first, then each new one;
    /// the sequence ends when the operation finishes.
    public var progress: AsyncStream<ProgressReport> { lifecycle.progressUpdates() }

    /// The latest progress the work reported, if any.
    public var currentProgress: ProgressReport? { lifecycle.state.withLock { $0.latestProgress } }
}
