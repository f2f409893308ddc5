import Foundation
import Networking
import _KitSupport

struct Note: Codable, Identifiable, Sendable, Equatable {
    var id: Int?
    var text: String
}

/// Records the delays a retry policy asks for instead of sleeping.
final class SleepRecorder: Sendable {
    private let delays = Locked<[Duration]>([])
    var recorded: [Duration] { delays.withLock { $0 } }

    func policy(
        maxAttempts: Int = 3, retriesNonIdempotent: Bool = false, jitter: Bool = false
    ) -> RetryPolicy {
        RetryPolicy(
            maxAttempts: maxAttempts, baseDelay: .milliseconds(100), jitter: jitter,
            retriesNonIdempotent: retriesNonIdempotent,
            sleep: { [delays] delay in delays.withLock { $0.append(delay) } }
        )
    }
}

/// A counter shared with server handlers.
final class Counter: Sendable {
    private let value = Locked(0)
    @discardableResult func next() -> Int {
        value.withLock {
            $0 += 1; return $0
        }
    }
    /// Adds `amount` (bytes a route produced, say).
    func add(_ amount: Int) { value.withLock { $0 += amount } }
    var count: Int { value.withLock { $0 } }
}

extension Data {
    /// Deterministic pseudo-random bytes.
    static func pattern(count: Int) -> Data {
        var data = Data(count: count)
        var state: UInt32 = 2_463_534_242
        for index in 0..<count {
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            data[index] = UInt8(truncatingIfNeeded: state)
        }
        return data
    }
}
