import Foundation

/// When and how often a failed request is tried again.
///
/// By default idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS, TRACE) are retried up to 3
/// attempts in all on 408, 429, 500, 502, 503 and 504 and on connection failures, with
/// exponential backoff and full jitter; a `Retry-After` header replaces the backoff. POST and
/// PATCH are not retried unless ``retriesNonIdempotent`` is set.
public struct RetryPolicy: Sendable {
    /// The most attempts in all, the first included; 1 means no retries.
    public var maxAttempts: Int
    /// The delay before the first retry, doubled for each one after.
    public var baseDelay: Duration
    /// The longest backoff delay.
    public var maxDelay: Duration
    /// Whether delays are drawn at random between zero and the backoff (full jitter).
    public var jitter: Bool
    /// The longest `Retry-After` honoured; a longer one ends the retries.
    public var maxRetryAfter: Duration
    /// The statuses worth retrying.
    public var retryableStatuses: Set<Int>
    /// Whether POST, PATCH and other non-idempotent methods are retried too.
    public var retriesNonIdempotent: Bool
    /// How the client waits between attempts; replace it in tests to record delays instead.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A policy from its parts.
    public init(
        maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(10),
        jitter: Bool = true, maxRetryAfter: Duration = .seconds(60),
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504], retriesNonIdempotent: Bool = false,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.maxRetryAfter = maxRetryAfter
        self.retryableStatuses = retryableStatuses
        self.retriesNonIdempotent = retriesNonIdempotent
        self.sleep = sleep
    }

    /// A policy that waits between attempts on `clock` instead of `Task.sleep`: give it a manual
    /// clock in tests (such as Operations' `ManualClock`) and advance it to let retries happen,
    /// with no real waiting. The other parts are as in ``init(maxAttempts:baseDelay:maxDelay:jitter:maxRetryAfter:retryableStatuses:retriesNonIdempotent:sleep:)``.
    public init<C: Clock<Duration>>(
        maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(10),
        jitter: Bool = true, maxRetryAfter: Duration = .seconds(60),
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504], retriesNonIdempotent: Bool = false,
        clock: C
    ) {
        self.init(
            maxAttempts: maxAttempts, baseDelay: baseDelay, maxDelay: maxDelay, jitter: jitter,
            maxRetryAfter: maxRetryAfter, retryableStatuses: retryableStatuses,
            retriesNonIdempotent: retriesNonIdempotent, sleep: { try await clock.sleep(for: $0) })
    }

    /// This policy, waiting between attempts on `clock` instead of its current ``sleep``.
    public func waiting(on clock: some Clock<Duration>) -> RetryPolicy {
        var copy = self
        copy.sleep = { try await clock.sleep(for: $0) }
        return copy
    }

    /// The default policy.
    public static var standard: RetryPolicy { RetryPolicy() }

    /// No retries at all.
    public static var never: RetryPolicy { RetryPolicy(maxAttempts: 1) }

    /// Whether `method` may be retried under this policy.
    public func allows(_ method: HTTPMethod) -> Bool {
        method.isIdempotent || retriesNonIdempotent
    }

    /// The delay before retry number `retry` (1 for the first), or nil to stop retrying.
    ///
    /// - Parameters:
    ///   - retry: which retry this would be, from 1.
    ///   - retryAfter: the server's `Retry-After` value, when it sent one.
    ///   - now: the time an HTTP-date `Retry-After` is measured from; the current time by default.
    public func delay(beforeRetry retry: Int, retryAfter: String? = nil, now: Date = Date()) -> Duration? {
        guard retry < maxAttempts else { return nil }
        if let retryAfter, let wait = RetryAfter.parse(retryAfter, now: now) {
            return wait <= maxRetryAfter ? wait : nil
        }
        let exponent = min(retry - 1, 30)
        let backoff = min(baseDelay * (1 << exponent), maxDelay)
        guard jitter else { return backoff }
        let fraction = Double.random(in: 0...1)
        return backoff * fraction
    }

    /// The wait a `Retry-After` value asks for: delay-seconds or an HTTP date (RFC 9110 §10.2.3),
    /// measured from `now`; nil when the value is neither. For callers that wait beyond one
    /// request's retries, e.g. a loop that tries again later.
    public static func retryAfter(_ value: String, now: Date = Date()) -> Duration? {
        RetryAfter.parse(value, now: now)
    }

    /// Whether an error from the transport is worth another attempt.
    static func isRetryable(_ error: any Error) -> Bool {
        guard let urlError = error as? URLError else { return false }
        switch urlError.code {
        case .timedOut, .networkConnectionLost, .cannotConnectToHost, .notConnectedToInternet, .dnsLookupFailed,
            .cannotFindHost, .badServerResponse:
            return true
        default:
            return false
        }
    }
}

/// Reads `Retry-After`: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
enum RetryAfter {
    static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        let interval = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64(interval * 1000))
    }
}
