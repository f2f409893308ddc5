extension StatefulOperation where Failure == any Error {
    /// Fails the operation with ``OperationError/timedOut(after:)`` when its work takes longer
    /// than `limit` on `clock`.
    ///
    /// The work is cancelled when time runs out, and the operation finishes once it returned:
    /// work never outlives its operation. Ignored once the operation started.
    /// - Parameters:
    ///   - limit: How long the work may take.
    ///   - clock: The clock to measure on; inject a ``ManualClock`` in tests.
    @discardableResult
    public func timeout(_ limit: Duration, clock: any Clock<Duration> = ContinuousClock()) -> Self {
        race {
            try await clock.sleep(for: limit); throw OperationError.timedOut(after: limit)
        }
    }

    /// Fails the operation with ``OperationError/deadlineExceeded`` when its work has not
    /// returned by `deadline` on `clock`. Ignored once the operation started.
    @discardableResult
    public func deadline<C: Clock>(_ deadline: C.Instant, clock: C) -> Self {
        race {
            try await clock.sleep(until: deadline, tolerance: nil); throw OperationError.deadlineExceeded
        }
    }

    /// Runs the work against `alarm`; whichever ends first decides, the other is cancelled.
    private func race(_ alarm: @escaping @Sendable () async throws -> Void) -> Self {
        configureWork { work in
            let original = work
            work = .reporting { progress in
                try await withThrowingTaskGroup(of: Output?.self) { group in
                    group.addTask { try await original(progress) }
                    group.addTask {
                        try await alarm()
                        return nil
                    }
                    defer { group.cancelAll() }
                    while let result = try await group.next() {
                        if let value = result { return value }
                    }
                    throw CancellationError()
                }
            }
        }
    }
}
