import EventBus
import Foundation
import Testing

/// A released token's subscriber, when no other thread was ever given it, is kept by the thread
/// for the next watch of the same event type instead of being freed. These tests hold that reuse
/// to what freeing promised: the handler's captures go when the token goes, a reused subscription
/// is a new one in every way (handler, place, order, leak report), and a subscriber a delivery
/// holds is never reused under it. (`ReusePolicyTests` says which are reused;
/// `ReuseUnderConcurrentDeliveryTests` races them against deliveries.)
@Suite("A released subscription's storage reused by the next watch")
struct SubscriberReuseTests {
    @Test("what a handler captured is released with its token, cancelled first or not")
    func capturesReleasedWithToken() {
        let bus = Bus()
        weak var cancelledCapture: Captured?
        weak var releasedCapture: Captured?
        do {
            let captured = Captured()
            cancelledCapture = captured
            let token = bus.watch(Ping.self) { _ in captured.touch() }
            token.cancel()
        }
        #expect(cancelledCapture == nil)
        do {
            let captured = Captured()
            releasedCapture = captured
            _ = bus.watch(Ping.self) { _ in captured.touch() }
        }
        #expect(releasedCapture == nil)
        #expect(bus.subscriptionCount == 0)
    }

    @Test("a watch after a released one is a new subscription: its own handler, place and order")
    func reusedIsNew() {
        let bus = Bus()
        let calls = Log<String>()
        let firstLine = #line + 1
        let first = bus.watch(Ping.self) { calls.append("first \($0.value)") }
        do {
            let gone = bus.watch(Ping.self) { calls.append("gone \($0.value)") }
            gone.cancel()
        }
        let line = #line + 1
        let second = bus.watch(Ping.self) { calls.append("second \($0.value)") }
        bus.trigger(Ping(value: 1))
        #expect(calls.entries == ["first 1", "second 1"])
        #expect(!second.isCancelled)
        #expect(bus.liveSubscriptions.map(\.line) == [firstLine, line])
        first.cancel()
        bus.trigger(Ping(value: 2))
        #expect(calls.entries == ["first 1", "second 1", "second 2"])
        second.cancel()
        #expect(second.isCancelled)
        bus.trigger(Ping(value: 3))
        #expect(calls.entries.count == 3)
    }

    @Test("a kept cancelled token stays cancelled while new watches come and go")
    func keptTokenStaysCancelled() {
        let bus = Bus()
        let calls = Log<Int>()
        let kept = bus.watch(Ping.self) { calls.append(-$0.value) }
        kept.cancel()
        for round in 0..<100 {
            let token = bus.watch(Ping.self) { calls.append($0.value) }
            bus.trigger(Ping(value: round))
            token.cancel()
        }
        kept.cancel()
        #expect(kept.isCancelled)
        #expect(calls.entries == Array(0..<100))
        #expect(bus.subscriptionCount == 0)
    }

    @Test("a handler that cancels and releases its own token and watches again mid-delivery")
    func releasedDuringDelivery() {
        let bus = Bus()
        let calls = Log<String>()
        let box = TokenBox()
        box.token = bus.watch(Ping.self) { ping in
            calls.append("old \(ping.value)")
            // The delivery still holds this subscriber: the new watch must not get it.
            box.token?.cancel()
            box.token = nil
            box.token = bus.watch(Ping.self) { calls.append("new \($0.value)") }
        }
        let bystander = bus.watch(Ping.self) { calls.append("bystander \($0.value)") }
        bus.trigger(Ping(value: 1))
        #expect(calls.entries == ["old 1", "bystander 1"])
        bus.trigger(Ping(value: 2))
        #expect(calls.entries == ["old 1", "bystander 1", "bystander 2", "new 2"])
        withExtendedLifetime(bystander) {}
    }

    @Test("a token released on another thread leaves the subscription it ended ended")
    func releasedOnAnotherThread() async {
        let bus = Bus()
        let calls = Log<Int>()
        for round in 0..<200 {
            let token = bus.watch(Ping.self) { calls.append($0.value) }
            await Task.detached { token.cancel() }.value
            bus.trigger(Ping(value: round))
        }
        #expect(calls.entries.isEmpty)
        #expect(bus.subscriptionCount == 0)
    }

    @Test("tasks watching, triggering and releasing one event type at once each get only their own rounds")
    func concurrentChurn() async {
        let bus = Bus()
        let misdelivered = Log<String>()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for round in 0..<300 {
                        let calls = Log<Int>()
                        let mine = task * 1_000_000
                        let token = bus.watch(Ping.self) { ping in
                            if ping.value / 1_000_000 == task { calls.append(ping.value - mine) }
                        }
                        bus.trigger(Ping(value: mine + round))
                        token.cancel()
                        bus.trigger(Ping(value: mine + round + 500_000))
                        if calls.entries != [round] {
                            misdelivered.append("task \(task) round \(round): \(calls.entries)")
                        }
                    }
                }
            }
        }
        #expect(misdelivered.entries.isEmpty)
        #expect(bus.subscriptionCount == 0)
    }
}

/// An object a handler captures, to see when it is released.
private final class Captured: Sendable {
    func touch() {}
}

/// A token slot a handler can empty (releasing the token) and refill.
private final class TokenBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: WatchToken?

    var token: WatchToken? {
        get { lock.withLock { stored } }
        set {
            let old = lock.withLock {
                defer { stored = newValue }
                return stored
            }
            _ = old
        }
    }
}
