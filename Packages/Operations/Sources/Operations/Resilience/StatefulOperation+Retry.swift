extension StatefulOperation {
    /// Runs the work again when it fails, waiting between attempts on `clock`.
    ///
    /// Modifiers wrap the work in the order they are written: `.timeout(…).retry(…)` gives each
    /// attempt its own time limit, `.retry(…).timeout(…)` limits all attempts together.
    /// Cancellation stops the retries at once. Ignored once the operation started.
    /// - Parameters:
    ///   - strategy: How long to wait before each new attempt.
    ///   - maxAttempts: The most attempts, the first included; values below 1 count as 1.
    ///   - clock: The clock to wait on; inject a ``ManualClock`` in tests.
    ///   - shouldRetry: Which errors are worth another attempt; all by default.
    @discardableResult
    public func retry(
        _ strategy: RetryStrategy = .exponential(), maxAttempts: Int = 3,
        clock: any Clock<Duration> = ContinuousClock(),
        if shouldRetry: @escaping @Sendable (Failure) -> Bool = { _ in true }
    ) -> Self {
        configureWork { work in
            let original = work
            let attempts = max(1, maxAttempts)
            work = .reporting { (progress: ProgressReporter) async throws(Failure) -> Output in
                var attempt = 1
                while true {
                    let failure: Failure
                    do throws(Failure) {
                        return try await original(progress)
                    } catch {
                        failure = error
                    }
                    guard attempt < attempts, !Task.isCancelled, shouldRetry(failure) else { throw failure }
                    do {
                        try await clock.sleep(for: strategy.delay(after: attempt))
                    } catch {
                        throw failure
                    }
                    attempt += 1
                }
            }
        }
    }
}
