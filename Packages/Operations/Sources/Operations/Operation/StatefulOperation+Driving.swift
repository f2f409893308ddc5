extension StatefulOperation {
    /// Takes the work and the callbacks out, so that they (and whatever they capture) are
    /// released as soon as the operation finishes. Only the task that sealed the operation calls it.
    func takeConfiguration() -> (Work?, Callbacks?) {
        defer {
            work = nil
            callbacks = nil
        }
        return (work, callbacks)
    }

    /// Runs an operation that has callbacks, on `isolation`; see `drive(isolation:turn:)`.
    func run(
        _ work: Work, _ callbacks: Callbacks, isolation: isolated (any Actor)?, turn: StartTurn?
    ) async -> FinishKind {
        if let turn { await turn.wait() }
        // Phases without callbacks are skipped outright: no call, no hop.
        if !callbacks.start.isEmpty { await callbacks.start.run(with: ()) }
        turn?.pass()

        // Work that was cancelled before it began is skipped; return still pairs with start.
        var outcome = OperationOutcome<Output, Failure>.cancelled
        if !isCancelled {
            do throws(Failure) {
                outcome = .succeeded(try await work(ProgressReporter(self)))
            } catch {
                outcome = error is CancellationError ? .cancelled : .failed(error)
            }
        }
        if markReturned() { outcome = .cancelled }

        if !callbacks.returned.isEmpty { await callbacks.returned.run(with: ()) }
        switch outcome {
        case .succeeded(let value):
            payload = value
            if !callbacks.success.isEmpty { await callbacks.success.run(with: value) }
        case .failed(let error):
            payload = error
            if !callbacks.fail.isEmpty { await callbacks.fail.run(with: error) }
        case .cancelled: break
        }
        if !callbacks.finish.isEmpty { await callbacks.finish.run(with: outcome) }
        let kind = outcome.kind
        finish(kind)
        return kind
    }
}
