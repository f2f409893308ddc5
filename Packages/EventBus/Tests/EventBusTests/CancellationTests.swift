import EventBus
import Testing
import _KitSupport

@Suite("Cancellation")
struct CancellationTests {
    @Test("a subscription cancelled during a delivery is not called for that event")
    func cancelledDuringDelivery() {
        let bus = Bus()
        let calls = Log<String>()
        let victim = Locked<WatchToken?>(nil)
        var bag = Subscriptions()
        bus.watch(Ping.self) { _ in
            calls.append("killer")
            victim.withLock { $0 }?.cancel()
        }.store(in: &bag)
        let token = bus.watch(Ping.self) { _ in calls.append("victim") }
        victim.withLock { $0 = token }
        bus.watch(Ping.self) { _ in calls.append("bystander") }.store(in: &bag)
        bus.trigger(Ping(value: 1))
        bus.trigger(Ping(value: 2))
        #expect(calls.entries == ["killer", "bystander", "killer", "bystander"])
    }

    @Test("a subscription cancelled with an event queued for it is not called for the queued event")
    func cancelledWhileQueued() {
        let bus = Bus()
        let calls = Log<Int>()
        let victim = Locked<WatchToken?>(nil)
        var bag = Subscriptions()
        bus.watch(Ping.self) { ping in
            if ping.value == 1 {
                bus.trigger(Ping(value: 2))
                victim.withLock { $0 }?.cancel()
            }
        }.store(in: &bag)
        let token = bus.watch(Ping.self) { calls.append($0.value) }
        victim.withLock { $0 = token }
        bus.trigger(Ping(value: 1))
        #expect(calls.entries == [])
    }

    @Test("a handler may cancel itself")
    func selfCancel() {
        let bus = Bus()
        let calls = Log<Int>()
        let me = Locked<WatchToken?>(nil)
        let token = bus.watch(Ping.self) { ping in
            calls.append(ping.value)
            me.withLock { $0 }?.cancel()
        }
        me.withLock { $0 = token }
        bus.trigger(Ping(value: 1))
        bus.trigger(Ping(value: 2))
        #expect(calls.entries == [1])
        #expect(me.withLock { $0 }?.isCancelled == true)
    }

    @Test("cancelling twice, and after the bus is gone, does nothing")
    func cancelTwice() {
        var bus: Bus? = Bus()
        let token = bus?.watch(Ping.self) { _ in }
        token?.cancel()
        token?.cancel()
        #expect(token?.isCancelled == true)
        let other = bus?.watch(Ping.self) { _ in }
        bus = nil
        #expect(other?.isCancelled == true)
        other?.cancel()
    }

    @Test("releasing the token ends the subscription")
    func releaseCancels() {
        let bus = Bus()
        let calls = Log<Int>()
        var token: WatchToken? = bus.watch(Ping.self) { calls.append($0.value) }
        bus.trigger(Ping(value: 1))
        #expect(token != nil)
        token = nil
        bus.trigger(Ping(value: 2))
        #expect(calls.entries == [1])
        #expect(bus.subscriptionCount == 0)
    }

    @Test("a Subscriptions bag cancels what it holds when released, even tokens held elsewhere")
    func bagCancelsOnDeinit() {
        let bus = Bus()
        let calls = Log<Int>()
        var bag: Subscriptions? = Subscriptions()
        let token = bus.watch(Ping.self) { calls.append($0.value) }
        if var held = bag {
            token.store(in: &held)
        }
        #expect(bag?.count == 1)
        bus.trigger(Ping(value: 1))
        bag = nil
        bus.trigger(Ping(value: 2))
        #expect(calls.entries == [1])
        #expect(token.isCancelled)
    }

    @Test("many cancellations keep the remaining subscribers and their order")
    func compaction() {
        let bus = Bus()
        let calls = Log<Int>()
        let tokens = (0..<100).map { index in bus.watch(Ping.self) { _ in calls.append(index) } }
        for (index, token) in tokens.enumerated() where index % 3 != 0 { token.cancel() }
        bus.trigger(Ping(value: 0))
        #expect(calls.entries == Array(stride(from: 0, to: 100, by: 3)))
        #expect(bus.subscriptionCount == 34)
        // Held to here: an optimised build may release an array after its last use, and a
        // released token ends its subscription.
        withExtendedLifetime(tokens) {}
    }
}
