import Foundation
import Networking
import NetworkingTesting
import Testing
import _KitSupport

/// A manual clock, small on purpose: Networking cannot depend on Operations' `ManualClock`.
/// Each sleep is announced on ``sleeps`` and lasts until the test calls ``advance(by:)``.
private final class StepClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Locked<(now: Instant, sleepers: [(Instant, CheckedContinuation<Void, any Error>)])>(
        (Instant(offset: .zero), []))
    /// The duration of every sleep, as it starts.
    let sleeps: AsyncStream<Duration>
    private let announce: AsyncStream<Duration>.Continuation

    init() { (sleeps, announce) = AsyncStream.makeStream() }

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state in
                state.sleepers.append((deadline, continuation))
                return state.now
            }
            announce.yield(start.duration(to: deadline))
        }
    }

    func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.0 <= now }
            state.sleepers.removeAll { $0.0 <= now }
            return due
        }
        for (_, continuation) in due { continuation.resume() }
    }
}

@Suite("Retries on an injected clock")
struct RetryClockTests {
    @Test("backoff waits on the given clock: advancing it runs the retries, with no real waiting")
    func manualClock() async throws {
        let clock = StepClock()
        let attempts = Locked(0)
        let transport = StubTransport()
        transport.stub("GET /api/flaky") { _ in
            attempts.withLock { count -> Int in
                count += 1
                return count
            } < 3 ? .status(503) : .text("ok")
        }
        let client = HTTPClient(baseURL: URL(string: "https://example.test/api/")!, transport: transport)
        client.retryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(4), jitter: false, clock: clock)
        let response = Task { try await client.send(HTTPRequest(path: "flaky")) }
        var sleeps = clock.sleeps.makeAsyncIterator()
        #expect(await sleeps.next() == .seconds(4))
        #expect(attempts.withLock { $0 } == 1)
        clock.advance(by: .seconds(4))
        #expect(await sleeps.next() == .seconds(8))
        #expect(attempts.withLock { $0 } == 2)
        clock.advance(by: .seconds(8))
        #expect(try await response.value.text == "ok")
        #expect(attempts.withLock { $0 } == 3)
        // Each retry ran only after the manual clock was advanced past its backoff (the clock
        // announced both sleeps), so no real waiting happened; the wall clock is not asserted,
        // as a busy machine makes any bound on it flaky.
    }

    @Test("waiting(on:) replaces the sleep of an existing policy")
    func waitingOn() async throws {
        let clock = StepClock()
        let transport = StubTransport()
        let attempts = Locked(0)
        transport.stub("GET /api/once") { _ in
            attempts.withLock { count -> Int in
                count += 1
                return count
            } < 2 ? .status(500) : .text("ok")
        }
        let client = HTTPClient(baseURL: URL(string: "https://example.test/api/")!, transport: transport)
        var policy = RetryPolicy.standard
        policy.jitter = false
        client.retryPolicy = policy.waiting(on: clock)
        let response = Task { try await client.send(HTTPRequest(path: "once")) }
        var sleeps = clock.sleeps.makeAsyncIterator()
        #expect(await sleeps.next() == .milliseconds(200))
        clock.advance(by: .milliseconds(200))
        #expect(try await response.value.text == "ok")
    }
}
