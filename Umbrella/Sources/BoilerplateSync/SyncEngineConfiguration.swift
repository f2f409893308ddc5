import Foundation
import Networking

/// How a ``SyncEngine`` syncs: its conflict policy, page size, period and retries.
public struct SyncEngineConfiguration<Record: Sendable>: Sendable {
    /// How conflicts are decided; ``SyncConflictPolicy/serverWins`` by default.
    public var conflictPolicy: SyncConflictPolicy<Record>
    /// The most entries asked for per feed page (the server may send fewer; it must not send more).
    public var pageSize: Int
    /// How long the loop (``SyncEngine/run()``) waits between syncs when nothing is written locally.
    public var interval: Duration
    /// How long the loop waits after a failed round (a network failure, 5xx after the retries, a
    /// corrupt page) before it tries again, doubled after each further failure and never longer
    /// than ``interval``; a good round resets it. A pause is not a failure: it waits for
    /// ``SyncEngine/resume()``.
    public var failureBackoff: Duration
    /// How each request is retried: network failures, 5xx and 429 (honouring `Retry-After`).
    /// Writes are retried too (`retriesNonIdempotent`): their idempotency key makes a retry safe.
    public var retry: RetryPolicy
    /// The largest feed page read, in bytes. A larger page is asked for again with half as many
    /// entries, down to one; a single entry over it is refused (``SyncError/corruptPage(problem:request:)``,
    /// nothing of it applied). A page over the `HTTPClient`'s `maxResponseSize` is handled the same way.
    public var maximumPageBytes: Int

    /// A configuration; every part has a default.
    public init(
        conflictPolicy: SyncConflictPolicy<Record> = .serverWins, pageSize: Int = 500,
        interval: Duration = .seconds(60), retry: RetryPolicy = SyncEngineConfiguration.defaultRetry,
        maximumPageBytes: Int = 32 * 1024 * 1024, failureBackoff: Duration = .seconds(1)
    ) {
        self.conflictPolicy = conflictPolicy
        self.pageSize = max(1, pageSize)
        self.interval = interval
        self.failureBackoff = max(.milliseconds(1), failureBackoff)
        self.retry = retry
        self.maximumPageBytes = maximumPageBytes
    }

    /// Five attempts with backoff, writes included.
    public static var defaultRetry: RetryPolicy { RetryPolicy(maxAttempts: 5, retriesNonIdempotent: true) }
}
