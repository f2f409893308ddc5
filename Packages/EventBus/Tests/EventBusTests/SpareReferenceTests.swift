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
    /// Watches `Ping` on `bus`, cancels and releases the token; returns its subscriber, weakly.
    private func released(on bus: Bus) -> WeakSubscriber {
        let token = bus.watch(Ping.self) { _ in }
        let subscriber = WeakSubscriber(token.subscriber)
        token.cancel()
        return subscriber
    }

    /// The strong references to a token's subscriber, as the runtime counts them. A debug build
    /// may add a temporary one of its own, so tests compare counts read the same way, never a
    /// count with a number.
    private func references(of token: WatchToken) -> UInt {
        _getRetainCount(token.subscriber)
    }

    @Test("a reused subscription holds as many references as a new one, through many reuses")
    func reusedHoldsWhatNewHolds() {
        let bus = Bus()
        let fresh = bus.watch(Pong.self) { _ in }
        let expected = references(of: fresh)  // the token's and the bucket's
        let old = released(on: bus)
        for _ in 0..<1_000 {
            bus.watch(Ping.self) { _ in }.cancel()
        }
        let token = bus.watch(Ping.self) { _ in }
        #expect(old.object === token.subscriber)
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
        let fresh = bus.watch(Pong.self) { _ in }
        do {
            let token = bus.watch(Ping.self, replayLast: true) { calls.append($0.value) }
            #expect(old.object === token.subscriber)
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
        let fresh = closed.watch(Pong.self) { _ in }
        let bus = Bus()
        let old = released(on: bus)
        do {
            let token = closed.watch(Ping.self) { _ in Issue.record("called on a closed bus") }
            #expect(old.object === token.subscriber)
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
        let fresh = bus.watch(Pong.self) { _ in }
        var held: Subscriber?
        let old: WeakSubscriber = {
            let token = bus.watch(Ping.self) { _ in }
            held = token.subscriber
            token.cancel()
            return WeakSubscriber(token.subscriber)
        }()
        #expect(held?.wasNeverHandedOut == true)
        let next = bus.watch(Ping.self) { _ in }
        #expect(old.object !== next.subscriber)
        #expect(references(of: next) == references(of: fresh))
        next.cancel()
        fresh.cancel()
        #expect(old.object != nil)
        held = nil
        #expect(old.object == nil)
    }
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
