extension StatefulOperation {
    /// Takes the configuration out, so the callbacks (and whatever they capture) are released
    /// as soon as the operation finishes.
    private func takeConfiguration() -> Configuration? {
        state.withLock { state in
            defer { state.configuration = nil }
            return state.configuration
        }
    }

    func drive(isolation: isolated (any Actor)?, turn: StartTurn?) async {
        guard let configuration = takeConfiguration() else {
            turn?.pass()
            lifecycle.finish(.cancelled)
            return
        }
        if let turn { await turn.wait() }
        // Phases without callbacks are skipped outright: no call, no hop.
        if !configuration.start.isEmpty { await configuration.start.run(with: ()) }
        turn?.pass()

        // Work that was cancelled before it began is skipped; return still pairs with start.
        var outcome = OperationOutcome<Output, Failure>.cancelled
        if !lifecycle.isCancelled {
            do throws(Failure) {
                outcome = .succeeded(try await configuration.work(ProgressReporter(lifecycle)))
            } catch {
                outcome = error is CancellationError ? .cancelled : .failed(error)
            }
        }
        if lifecycle.markReturned() { outcome = .cancelled }

        if !configuration.returned.isEmpty { await configuration.returned.run(with: ()) }
        switch outcome {
        case .succeeded(let value): if !configuration.success.isEmpty { await configuration.success.run(with: value) }
        case .failed(let error): if !configuration.fail.isEmpty { await configuration.fail.run(with: error) }
        case .cancelled: break
        }
        if !configuration.finish.isEmpty { await configuration.finish.run(with: outcome) }
        complete(with: outcome)
    }

    func deliverCancelled(isolation: isolated (any Actor)?) async {
        if let configuration = takeConfiguration() {
            await configuration.finish.run(with: .cancelled)
        }
        complete(with: .cancelled)
    }

    private func complete(with outcome: OperationOutcome<Output, Failure>) {
        state.withLock { $0.outcome = outcome }
        lifecycle.finish(outcome.kind)
    }
}
