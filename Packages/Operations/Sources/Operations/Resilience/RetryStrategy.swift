/// How long to wait before each new attempt.
public struct RetryStrategy: Sendable {
    private let delay: @Sendable (_ attempt: Int, _ random: Double) -> Duration

    /// A strategy from a function of the attempt that just failed (1 for the first).
    public static func custom(_ delay: @escaping @Sendable (_ attempt: Int) -> Duration) -> RetryStrategy {
        RetryStrategy { attempt, _ in delay(attempt) }
    }

    /// The same wait every time.
    public static func constant(_ delay: Duration) -> RetryStrategy {
        RetryStrategy { _, _ in delay }
    }

    /// A wait that grows by `multiplier` after each attempt, up to `maximum`, less a random
    /// share of up to `jitter` (0 to 1) so that many clients do not retry in step.
    /// - Parameters:
    ///   - initial: The wait after the first failure.
    ///   - multiplier: How much the wait grows each time.
    ///   - maximum: The longest wait.
    ///   - jitter: The largest share of the wait taken off at random, from 0 (none) to 1.
    public static func exponential(
        initial: Duration = .milliseconds(200), multiplier: Double = 2, maximum: Duration = .seconds(30),
        jitter: Double = 0.2
    ) -> RetryStrategy {
        let jitter = jitter.isNaN ? 0 : min(max(jitter, 0), 1)
        return RetryStrategy { attempt, random in
            var wait = initial
            for _ in 1..<max(attempt, 1) {
                wait = wait * multiplier
                if wait >= maximum { break }
            }
            return min(wait, maximum) * (1 - jitter * random)
        }
    }

    private init(_ delay: @escaping @Sendable (Int, Double) -> Duration) {
        self.delay = delay
    }

    /// The wait after attempt number `attempt` (1 for the first) failed.
    public func delay(after attempt: Int) -> Duration {
        delay(attempt, Double.random(in: 0..<1))
    }

    /// The wait after attempt number `attempt` failed, drawing jitter from `generator`.
    public func delay(after attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        delay(attempt, Double.random(in: 0..<1, using: &generator))
    }
}
