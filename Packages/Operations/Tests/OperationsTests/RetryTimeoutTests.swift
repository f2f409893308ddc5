import Testing
import _KitSupport

@testable import Operations

/// Fails `failures` times, then returns the attempt number.
final class Flaky: Sendable {
    private let attempts = Locked(0)
    let failures: Int

    init(failures: Int) { self.failures = failures }

    func call() throws -> Int {
        let attempt = attempts.withLock {
            $0 += 1
            return $0
        }
        if attempt <= failures { throw LoginError.locked(minutes: attempt) }
        return attempt
    }

    var count: Int { attempts.withLock { $0 } }
}

@Suite("Retries and timeouts in virtual time")
struct RetryTimeoutTests {
    @Test("a retried operation waits the strategy's delay on the injected clock, then succeeds")
    func retrySucceeds() async {
        let clock = ManualClock()
        let flaky = Flaky(failures: 2)
        let op = StatefulOperation(base: .none) { try flaky.call() }
            .retry(.constant(.seconds(5)), maxAttempts: 3, clock: clock)
        op.start()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(4))
        #expect(flaky.count == 1 && clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
        #expect(flaky.count == 2)
        clock.advance(by: .seconds(5))
        #expect(await op.outcome.value == 3)
        #expect(clock.now.offset == .seconds(10))
    }

    @Test("after maxAttempts the operation fails with the last error")
    func retryGivesUp() async {
        let clock = ManualClock()
        let flaky = Flaky(failures: 10)
        let op = StatefulOperation(base: .none) { try flaky.call() }
            .retry(.constant(.seconds(1)), maxAttempts: 3, clock: clock)
        op.start()
        for _ in 0..<2 {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
        }
        let outcome = await op.outcome
        #expect(outcome.error as? LoginError == .locked(minutes: 3))
        #expect(flaky.count == 3)
    }

    @Test("the predicate decides which errors are retried")
    func retryPredicate() async {
        let flaky = Flaky(failures: 10)
        let op = StatefulOperation(base: .none) { try flaky.call() }
            .retry(.constant(.seconds(1)), maxAttempts: 5, clock: ManualClock()) { error in
                (error as? LoginError) == .invalidCredentials
            }
        #expect(await op.outcome.error != nil)
        #expect(flaky.count == 1)
    }

    @Test("typed failures keep their type through retries")
    func typedRetry() async {
        let clock = ManualClock()
        let op = StatefulOperation(base: .none) { () async throws(LoginError) -> Int in throw .invalidCredentials }
            .retry(.constant(.seconds(1)), maxAttempts: 2, clock: clock)
        op.start()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        let outcome: OperationOutcome<Int, LoginError> = await op.outcome
        #expect(outcome.error == .invalidCredentials)
    }

    @Test("cancelling during the wait between attempts ends the operation cancelled")
    func cancelDuringBackoff() async {
        let clock = ManualClock()
        let flaky = Flaky(failures: 10)
        let op = StatefulOperation(base: .none) { try flaky.call() }
            .retry(.constant(.seconds(30)), maxAttempts: 5, clock: clock)
        op.start()
        await clock.waitForSleepers(1)
        op.cancel()
        #expect(await op.outcome.isCancelled)
        #expect(flaky.count == 1)
    }

    @Test(
        "exponential backoff doubles up to its maximum",
        arguments: [(1, 100), (2, 200), (3, 400), (4, 800), (5, 1000), (9, 1000)])
    func exponentialDelays(attempt: Int, milliseconds: Int) {
        let strategy = RetryStrategy.exponential(
            initial: .milliseconds(100), multiplier: 2, maximum: .seconds(1), jitter: 0)
        #expect(strategy.delay(after: attempt) == .milliseconds(milliseconds))
    }

    @Test("jitter takes at most its share off the delay")
    func jitterBounds() {
        var generator = SystemRandomNumberGenerator()
        let strategy = RetryStrategy.exponential(initial: .seconds(1), maximum: .seconds(1), jitter: 0.5)
        for _ in 0..<200 {
            let delay = strategy.delay(after: 1, using: &generator)
            #expect(delay >= .milliseconds(500) && delay <= .seconds(1))
        }
    }

    @Test("a custom strategy is a function of the attempt")
    func customStrategy() {
        #expect(RetryStrategy.custom { .seconds($0 * 3) }.delay(after: 2) == .seconds(6))
    }

    @Test("work that outlasts its timeout is cancelled and the operation fails with timedOut")
    func timeoutFires() async {
        let clock = ManualClock()
        let workCancelled = Locked(false)
        let op = StatefulOperation(base: .none) { () async throws -> Int in
            do {
                try await clock.sleep(for: .seconds(10))
            } catch {
                workCancelled.withLock { $0 = true }
                throw error
            }
            return 1
        }
        .timeout(.seconds(5), clock: clock)
        op.start()
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(5))
        #expect(await op.outcome.error as? OperationError == .timedOut(after: .seconds(5)))
        #expect(workCancelled.withLock { $0 })
    }

    @Test("work that beats its timeout succeeds")
    func timeoutNotHit() async {
        let op = StatefulOperation(base: .none) { () async throws -> Int in 7 }.timeout(
            .seconds(5), clock: ManualClock())
        #expect(await op.outcome.value == 7)
    }

    @Test("a deadline on the clock fails the operation with deadlineExceeded")
    func deadline() async {
        let clock = ManualClock()
        let op = StatefulOperation(base: .none) { () async throws -> Int in
            try await clock.sleep(for: .seconds(100))
            return 1
        }
        .deadline(clock.now.advanced(by: .seconds(3)), clock: clock)
        op.start()
        await clock.waitForSleepers(2)
        clock.advance(to: .init(offset: .seconds(3)))
        #expect(await op.outcome.error as? OperationError == .deadlineExceeded)
    }

    @Test("a timeout inside a retry limits each attempt")
    func timeoutPerAttempt() async {
        let clock = ManualClock()
        let attempts = Locked(0)
        let op = StatefulOperation(base: .none) { () async throws -> Int in
            let attempt = attempts.withLock {
                $0 += 1
                return $0
            }
            if attempt == 1 { try await clock.sleep(for: .seconds(60)) }
            return attempt
        }
        .timeout(.seconds(2), clock: clock)
        .retry(.constant(.seconds(1)), maxAttempts: 2, clock: clock)
        op.start()
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(2))
        // The timed-out attempt's own sleep ends with its cancellation; then the retry waits.
        await settle { clock.sleeperCount == 0 }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await op.outcome.value == 2)
    }

    @Test("the manual clock wakes sleepers whose deadline passed and leaves the others")
    func manualClock() async throws {
        let clock = ManualClock()
        try await clock.sleep(until: clock.now)
        let woke = Locked<[Int]>([])
        async let early: Void = {
            try? await clock.sleep(for: .seconds(1)); woke.withLock { $0.append(1) }
        }()
        async let late: Void = {
            try? await clock.sleep(for: .seconds(5)); woke.withLock { $0.append(5) }
        }()
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(2))
        await settle { woke.withLock { $0 } == [1] }
        #expect(woke.withLock { $0 } == [1] && clock.sleeperCount == 1)
        clock.advance(by: .seconds(3))
        _ = await (early, late)
        #expect(woke.withLock { $0 } == [1, 5])
    }
}
