/// How a pass of the sync loop ended.
enum PassOutcome: Equatable {
    /// A good round, a pause, or no round (paused).
    case done
    /// A failed round; `serverAskedToWait` is the server's `Retry-After`, when it sent one.
    case failed(serverAskedToWait: Duration?)
}

/// The loop's wait after a pass: the period after a good one; after failed ones
/// ``SyncEngineConfiguration/failureBackoff``, doubled per further failure, never over the period,
/// unless the server asked for longer (`Retry-After`, honoured up to a day).
struct LoopDelay {
    private let backoff: Duration
    private let interval: Duration
    private var failures = 0

    init<Record>(_ configuration: SyncEngineConfiguration<Record>) {
        backoff = configuration.failureBackoff
        interval = configuration.interval
    }

    /// The longest `Retry-After` the loop honours.
    static let longestServerWait = Duration.seconds(86_400)

    mutating func after(_ outcome: PassOutcome) -> Duration {
        guard case .failed(let serverAskedToWait) = outcome else {
            failures = 0
            return interval
        }
        failures = min(failures + 1, 30)
        let own = min(interval, backoff * (1 << (failures - 1)))
        return max(own, min(serverAskedToWait ?? .zero, Self.longestServerWait))
    }
}
