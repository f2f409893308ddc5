import Testing

@testable import EventBus

/// Which released subscriptions have their storage reused: only those no other thread was ever
/// given. A subscriber that was in a trigger's snapshot or a leak report may still be read by
/// that thread (its handler, its place), so it is freed as usual, never rewritten. These tests
/// look at the subscriber objects themselves (hence `@testable`): a reused one is the very object
/// the next watch gets; one that is not reused is gone once its token is.
@Suite("Which released subscriptions are reused")
struct ReusePolicyTests {
    /// Watches `Ping` on `bus`, runs `between` while subscribed, then cancels and releases the
    /// token; returns the released subscriber, weakly.
    private func released(on bus: Bus, between: (WatchToken) -> Void = { _ in }) -> WeakSubscriber {
        let token = bus.watch(Ping.self) { _ in }
        let subscriber = WeakSubscriber(token.subscriber)
        between(token)
        token.cancel()
        return subscriber
    }

    @Test("a subscription made and cancelled with nothing triggered in between is reused by the next watch")
    func quietSubscriptionReused() {
        let bus = Bus()
        let old = released(on: bus)
        #expect(old.object != nil)
        let next = bus.watch(Ping.self) { _ in }
        #expect(old.object === next.subscriber)
        #expect(!next.isCancelled)
        next.cancel()
    }

    @Test("a subscription that was in a trigger's snapshot is freed, not reused")
    func deliveredSubscriptionFreed() {
        let bus = Bus()
        let old = released(on: bus) { _ in bus.trigger(Ping(value: 1)) }
        #expect(old.object == nil)
    }

    @Test("a trigger of the type with the subscription in place, even one it ignores, prevents its reuse")
    func triggerWhileStoredPreventsReuse() {
        let bus = Bus()
        let sender = Sender()
        // Triggered from a sender: the snapshot still holds the type's subscribers.
        let old = released(on: bus) { _ in bus.trigger(Ping(value: 1), from: sender) }
        #expect(old.object == nil)
    }

    @Test("a trigger of another event type does not prevent reuse")
    func otherTypeTriggerAllowsReuse() {
        let bus = Bus()
        let old = released(on: bus) { _ in bus.trigger(Pong(value: 1)) }
        #expect(old.object != nil)
        let next = bus.watch(Ping.self) { _ in }
        #expect(old.object === next.subscriber)
        next.cancel()
    }

    @Test("a trigger before the watch does not prevent reuse")
    func triggerBeforeWatchAllowsReuse() {
        let bus = Bus()
        bus.trigger(Ping(value: 1))
        let old = released(on: bus)
        #expect(old.object != nil)
    }

    @Test("a subscription that was in a leak report is freed, not reused")
    func reportedSubscriptionFreed() {
        let bus = Bus()
        let old = released(on: bus) { _ in #expect(bus.subscriptionCount == 1) }
        #expect(old.object == nil)
    }

    @Test("a subscription cancelled while not the newest (dropped lazily) is freed, not reused")
    func olderSubscriptionFreed() {
        let bus = Bus()
        let newer = Box<WatchToken>()
        let old = released(on: bus) { _ in newer.value = bus.watch(Ping.self) { _ in } }
        #expect(old.object == nil)
        newer.value?.cancel()
    }

    @Test("a subscription ended by unwatch or by closing the bus is freed, not reused")
    func unwatchedSubscriptionFreed() {
        let bus = Bus()
        let unwatched = {
            let token = bus.watch(Ping.self) { _ in }
            bus.unwatch(Ping.self)
            #expect(token.isCancelled)
            return WeakSubscriber(token.subscriber)
        }()
        #expect(unwatched.object == nil)

        let closing = Bus()
        let closed = {
            let token = closing.watch(Ping.self) { _ in }
            closing.close()
            return WeakSubscriber(token.subscriber)
        }()
        #expect(closed.object == nil)
    }

    @Test("a reused subscription that is then delivered to is freed after its cancel, not reused again")
    func reuseEndsAtFirstDelivery() {
        let bus = Bus()
        let first = released(on: bus)
        let second = released(on: bus) { token in
            #expect(first.object === token.subscriber)
            bus.trigger(Ping(value: 1))
        }
        #expect(second.object == nil)
        #expect(first.object == nil)
    }

    @Test("subscriptions filtering by sender and named ones are never reused")
    func otherKindsFreed() {
        let bus = Bus()
        let sender = Sender()
        let fromSender = {
            let token = bus.watch(Ping.self, from: sender) { _ in }
            token.cancel()
            return WeakSubscriber(token.subscriber)
        }()
        #expect(fromSender.object == nil)
        let named = {
            let token = bus.watch("n") { _ in }
            token.cancel()
            return WeakSubscriber(token.subscriber)
        }()
        #expect(named.object == nil)
        withExtendedLifetime(sender) {}
    }
}

/// A subscriber, held weakly: nil once it was freed.
private final class WeakSubscriber {
    weak var object: Subscriber?
    init(_ object: Subscriber) { self.object = object }
}

/// A slot a closure can fill.
private final class Box<Value> {
    var value: Value?
}
