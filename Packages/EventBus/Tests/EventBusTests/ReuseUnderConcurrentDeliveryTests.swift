import Foundation
import Testing

@testable import EventBus

/// A released subscription's storage is reused only when no other thread was ever given it.
/// Here threads trigger the very event type others watch and cancel in a loop, so snapshots
/// taken on one thread race with cancels, releases and reuses on others. Run it under
/// ThreadSanitizer (`make test-tsan`): a reuse that rewrote a handler another thread had read
/// would be reported as a race. Without TSan it still checks what a user sees: each handler
/// gets its own subscription's events and none after its cancel, a reused subscription's handler
/// is the new one, and what a handler captured is released when its token goes.
@Suite("Reused subscriptions while other threads deliver")
struct ReuseUnderConcurrentDeliveryTests {
    @Test("threads triggering while others watch, cancel and release: handlers stay their own")
    func deliveriesRaceReuse() async {
        let bus = Bus()
        let churners = 4
        let rounds = 3_000
        let violations = Log<String>()
        let reuses = Tally()
        let captures = Tally()
        let capturesGone = Tally()
        let releaser = TokenQueue()
        let churning = Tally()
        churning.add(churners)

        await onThreads(churners + 3) { thread in
            switch thread {
            case churners, churners + 1:
                // Deliverers: trigger the churners' event type, with quiet spells so that some
                // subscriptions live and die with no trigger in between (the reusable ones).
                var count = 0
                while churning.value > 0 {
                    bus.trigger(Ping(value: -1))
                    count += 1
                    if count % 64 == 0 { usleep(200) }
                }
            case churners + 2:
                // Releases tokens other threads cancelled: the release (and the reuse decision)
                // happens on a thread that did not cancel.
                while churning.value > 0 || !releaser.isEmpty {
                    if !releaser.releaseOldest() { usleep(50) }
                }
            default:
                var last: PreviousRound?
                for round in 0..<rounds {
                    let outcome = churn(
                        bus: bus, thread: thread, round: round, previous: last, releaser: releaser,
                        violations: violations, captures: captures, capturesGone: capturesGone)
                    if outcome.wasReused { reuses.add(1) }
                    last = outcome.previous
                }
                churning.add(-1)
            }
        }

        #expect(violations.entries.isEmpty, "\(violations.entries.prefix(5))")
        // Every capture is gone: with its token, or when the last snapshot holding it ended.
        #expect(capturesGone.value == captures.value)
        // The quiet spells let some subscriptions be reused.
        #expect(reuses.value > 0)
        #expect(bus.subscriptionCount == 0)
    }

    /// One round on a churning thread: watch, maybe trigger its own event, cancel (or not),
    /// release (here or on the releasing thread), then check what happened.
    private func churn(
        bus: Bus, thread: Int, round: Int, previous: PreviousRound?, releaser: TokenQueue,
        violations: Log<String>, captures: Tally, capturesGone: Tally
    ) -> (wasReused: Bool, previous: PreviousRound) {
        let mine = thread * 1_000_000 + round
        let afterCancel = mine + 500_000
        let received = Log<Int>()
        weak var weakCapture: Capture?
        // Made in a closure, so that only the handler holds the capture afterwards.
        var token: WatchToken? = {
            let capture = Capture(gone: capturesGone)
            captures.add(1)
            weakCapture = capture
            return bus.watch(Ping.self) { [capture] ping in
                capture.touch()
                // Deliverers' events (-1) and other churners' may come at any time; of this
                // thread's, only this round's own.
                if ping.value >= 0, ping.value / 1_000_000 == thread { received.append(ping.value) }
            }
        }()
        let subscriber = token.map { WeakSubscriber($0.subscriber) } ?? WeakSubscriber(nil)
        var wasReused = false
        if let previous, let old = previous.subscriber.object, old === subscriber.object {
            wasReused = true
            if previous.captureOutlivedToken {
                violations.append(
                    "thread \(thread) round \(round): a reused subscription's old capture outlived its token")
            }
        }
        if round % 2 == 0 { bus.trigger(Ping(value: mine)) }
        switch round % 3 {
        case 0:
            token?.cancel()
            token = nil
        case 1:
            // Released without a cancel: the token's release cancels.
            token = nil
        default:
            token?.cancel()
            if let handed = token { releaser.push(handed) }
            token = nil
        }
        bus.trigger(Ping(value: afterCancel))
        let expected = round % 2 == 0 ? [mine] : []
        if received.entries != expected {
            violations.append("thread \(thread) round \(round): got \(received.entries), expected \(expected)")
        }
        // Whether the capture outlived the token: allowed only while a snapshot (or the releasing
        // thread) still holds the subscriber, which then is not reused.
        return (
            wasReused, PreviousRound(subscriber: subscriber, captureOutlivedToken: weakCapture != nil && round % 3 != 2)
        )
    }
}

/// What the next round checks about the previous one.
private struct PreviousRound {
    let subscriber: WeakSubscriber
    let captureOutlivedToken: Bool
}

/// Runs `body` on `count` new threads (not Swift-concurrency ones, so they may block) and
/// returns when all have finished.
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let running = Tally()
        running.add(count)
        for index in 0..<count {
            Thread {
                body(index)
                if running.add(-1) == 0 { continuation.resume() }
            }.start()
        }
    }
}

/// A subscriber, held weakly.
private final class WeakSubscriber: @unchecked Sendable {
    weak var object: Subscriber?
    init(_ object: Subscriber?) { self.object = object }
}

/// An object a handler captures; counts itself gone.
private final class Capture: Sendable {
    let gone: Tally
    init(gone: Tally) { self.gone = gone }
    func touch() {}
    deinit { gone.add(1) }
}

/// A counter shared by threads.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    @discardableResult
    func add(_ amount: Int) -> Int {
        lock.withLock {
            count += amount; return count
        }
    }
    var value: Int { lock.withLock { count } }
}

/// Tokens handed to the releasing thread.
private final class TokenQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: [WatchToken] = []

    func push(_ token: WatchToken) { lock.withLock { tokens.append(token) } }

    /// Takes the oldest token and releases it on the calling thread; false when there is none.
    func releaseOldest() -> Bool {
        var token: WatchToken? = lock.withLock { tokens.isEmpty ? nil : tokens.removeFirst() }
        guard token != nil else { return false }
        token = nil
        return true
    }

    var isEmpty: Bool { lock.withLock { tokens.isEmpty } }
}
