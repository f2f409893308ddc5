import Foundation
import Testing

@testable import EventBus

/// A subscriber marked for reuse keeps its bucket's reference when it is cancelled, and its next
/// bucket takes that reference over instead of retaining it (two atomic instructions less per
/// watch-and-cancel). These tests hold the counting to account on every path a spare can take:
/// a reused subscription holds exactly what a new one holds, and a spare that is dropped, however
/// it is dropped, is freed, neither leaked nor released once too often.
@Suite("The bucket's reference a reused subscriber carries")
struct SpareReferenceTests {
    // The helpers that read a token's subscriber are never inlined: a strong temporary made
    // to read it is then released before they return. Inlined, an optimised build may release
    // it after the token, and the token's release would find a third holder and not reuse.

    /// Watches `Ping` on `bus`, cancels and releases the token; returns its subscriber, weakly.
    @inline(never)
    private func released(on bus: Bus) -> WeakSubscriber {
        let token = bus.watch(Ping.self) { _ in }
        let subscriber = weakly(token)
        token.cancel()
        return subscriber
    }

    /// Watches `Ping` on `bus` and releases the token without cancelling it (its release
    /// cancels); returns its subscriber, weakly.
    @inline(never)
    private func releasedUncancelled(on bus: Bus) -> WeakSubscriber {
        let token = bus.watch(Ping.self) { _ in }
        return weakly(token)
    }

    /// A token's subscriber, held weakly.
    @inline(never)
    private func weakly(_ token: WatchToken) -> WeakSubscriber {
        WeakSubscriber(token.subscriber)
    }

    /// Whether `token`'s subscriber is `subscriber`'s object.
    @inline(never)
    private func isSubscriber(of token: WatchToken, _ subscriber: WeakSubscriber) -> Bool {
        subscriber.object === token.subscriber
    }

    /// The strong references to a token's subscriber, as the runtime counts them. A debug build
    /// may add a temporary one of its own, so tests compare counts read the same way, never a
    /// count with a number.
    @inline(never)
    private func references(of token: WatchToken) -> UInt {
        _getRetainCount(token.subscriber)
    }

    /// A subscription that is never a reused spare, whatever an earlier test left on this thread
    /// (tests share threads): one filtered on a sender is always a new subscriber. Stored with a
    /// retain on an open bus, so it holds what a new subscription holds: its token's reference
    /// and its bucket's.
    private func baseline(on bus: Bus, anchor: AnyObject) -> WatchToken {
        bus.watch(Pong.self, from: anchor) { _ in }
    }

    @Test("a reused subscription holds as many references as a new one, through many reuses")
    func reusedHoldsWhatNewHolds() {
        let bus = Bus()
        let anchor = Anchor()
        let fresh = baseline(on: bus, anchor: anchor)
        let expected = references(of: fresh)  // the token's and the bucket's
        let old = released(on: bus)
        for _ in 0..<1_000 {
            bus.watch(Ping.self) { _ in }.cancel()
        }
        let token = bus.watch(Ping.self) { _ in }
        #expect(isSubscriber(of: token, old))
        #expect(references(of: token) == expected)
        token.cancel()
        fresh.cancel()
        #expect(bus.subscriptionCount == 0)
    }

    @Test("a reused subscription stored by the slow path (replay asked for) is freed once delivered and released")
    func reusedWithReplay() {
        let bus = Bus()
        bus.trigger(Ping(value: 7))
        let old = released(on: bus)
        let calls = Log<Int>()
        let anchor = Anchor()
        let fresh = baseline(on: bus, anchor: anchor)
        do {
            let token = bus.watch(Ping.self, replayLast: true) { calls.append($0.value) }
            #expect(isSubscriber(of: token, old))
            #expect(references(of: token) == references(of: fresh))
            bus.trigger(Ping(value: 8))
            token.cancel()
        }
        #expect(calls.entries == [7, 8])
        fresh.cancel()
        // Delivered to, so not reused again: freed with its token.
        #expect(old.object == nil)
    }

    @Test("a spare reused by a watch on a closed bus is freed with its token")
    func reusedOnClosedBus() {
        let closed = Bus()
        closed.close()
        // Never stored: the token's reference only.
        let anchor = Anchor()
        let fresh = baseline(on: closed, anchor: anchor)
        let bus = Bus()
        let old = released(on: bus)
        do {
            let token = closed.watch(Ping.self) { _ in Issue.record("called on a closed bus") }
            #expect(isSubscriber(of: token, old))
            #expect(token.isCancelled)
            #expect(references(of: token) == references(of: fresh))
        }
        #expect(old.object == nil)
    }

    @Test("a spare replaced by one of another event type is freed")
    func replacedSpareFreed() {
        let bus = Bus()
        let ping = released(on: bus)
        #expect(ping.object != nil)
        bus.watch(Pong.self) { _ in }.cancel()
        #expect(ping.object == nil)
    }

    @Test("a spare kept by a thread that ends is freed with the thread")
    func spareFreedWithItsThread() throws {
        let bus = Bus()
        let result = SpareOnThread(bus: bus)
        try runOnOwnThread(result)
        #expect(result.wasKept)
        #expect(result.subscriber.object == nil)
    }

    @Test("a marked subscriber still held elsewhere at its token's release is not reused, and is freed when let go")
    func heldSubscriberNotReused() {
        let bus = Bus()
        let anchor = Anchor()
        let fresh = baseline(on: bus, anchor: anchor)
        var held: Subscriber?
        let old: WeakSubscriber = {
            let token = bus.watch(Ping.self) { _ in }
            held = token.subscriber
            token.cancel()
            return weakly(token)
        }()
        #expect(held?.wasNeverHandedOut == true)
        let next = bus.watch(Ping.self) { _ in }
        #expect(!isSubscriber(of: next, old))
        #expect(references(of: next) == references(of: fresh))
        next.cancel()
        fresh.cancel()
        #expect(old.object != nil)
        held = nil
        #expect(old.object == nil)
    }

    @Test("a spare outlives its bus, serves a watch on another bus, and returns after an uncancelled release")
    func reusedOnAnotherBusAfterItsOwnIsGone() {
        let other = Bus()
        let anchor = Anchor()
        let fresh = baseline(on: other, anchor: anchor)
        let gone = WeakBus()
        let old: WeakSubscriber = {
            let bus = Bus()
            gone.object = bus
            return released(on: bus)
        }()
        #expect(gone.object == nil)
        #expect(old.object != nil)
        do {
            // Reused on the fast path of a bus it was never stored in.
            let token = other.watch(Ping.self) { _ in }
            #expect(isSubscriber(of: token, old))
            #expect(references(of: token) == references(of: fresh))
            token.cancel()
        }
        // Reused again, and released uncancelled: the release cancels it, marks it and keeps
        // it as the spare once more.
        let again = releasedUncancelled(on: other)
        #expect(again.object != nil)
        #expect(again.object === old.object)
        let token = other.watch(Ping.self) { _ in }
        #expect(isSubscriber(of: token, old))
        #expect(references(of: token) == references(of: fresh))
        #expect(other.subscriptionCount == 2)
        token.cancel()
        fresh.cancel()
        #expect(other.subscriptionCount == 0)
    }
}

/// A sender to filter on.
private final class Anchor: Sendable {}

/// A bus, held weakly: nil once it was freed.
private final class WeakBus: @unchecked Sendable {
    weak var object: Bus?
}

/// A subscriber, held weakly: nil once it was freed.
private final class WeakSubscriber: @unchecked Sendable {
    weak var object: Subscriber?
    init(_ object: Subscriber? = nil) { self.object = object }
}

/// What a thread of its own did: watched and cancelled `Ping` on `bus`, leaving a spare.
private final class SpareOnThread: @unchecked Sendable {
    let bus: Bus
    let subscriber = WeakSubscriber()
    var wasKept = false

    init(bus: Bus) { self.bus = bus }

    func run() {
        do {
            let token = bus.watch(Ping.self) { _ in }
            subscriber.object = token.subscriber
            token.cancel()
        }
        // Released: kept as this thread's spare, until the thread ends.
        wasKept = subscriber.object != nil
    }
}

/// Runs `work.run()` on a new thread and returns once that thread has ended, its thread-local
/// state's destructor included (`pthread_join`).
private func runOnOwnThread(_ work: SpareOnThread) throws {
    let context = Unmanaged.passRetained(work).toOpaque()
    #if canImport(Darwin)
        var thread: pthread_t?
    #else
        var thread = pthread_t()
    #endif
    let created = pthread_create(
        &thread, nil,
        { context in
            #if canImport(Darwin)
                let work = Unmanaged<SpareOnThread>.fromOpaque(context).takeRetainedValue()
            #else
                guard let context else { return nil }
                let work = Unmanaged<SpareOnThread>.fromOpaque(context).takeRetainedValue()
            #endif
            work.run()
            return nil
        }, context)
    try #require(created == 0)
    #if canImport(Darwin)
        guard let thread else { return }
        pthread_join(thread, nil)
    #else
        pthread_join(thread, nil)
    #endif
}
