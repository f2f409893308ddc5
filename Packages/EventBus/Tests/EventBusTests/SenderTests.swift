import EventBus
import Testing

@Suite("Senders")
struct SenderTests {
    @Test("a sender filter matches that very object, not another of the same type")
    func identity() {
        let bus = Bus()
        let mine = Sender()
        let other = Sender()
        let calls = Log<Int>()
        let token = bus.watch(Ping.self, from: mine) { calls.append($0.value) }
        bus.trigger(Ping(value: 1), from: mine)
        bus.trigger(Ping(value: 2), from: other)
        bus.trigger(Ping(value: 3))
        #expect(calls.entries == [1])
        token.cancel()
    }

    @Test("senders are held weakly and a deallocated sender's subscriptions go quiet")
    func weakSender() {
        let bus = Bus()
        let calls = Log<Int>()
        weak var gone: Sender?
        var bag = Subscriptions()
        do {
            let sender = Sender()
            gone = sender
            bus.watch(Ping.self, from: sender) { calls.append($0.value) }.store(in: &bag)
            bus.watch(from: sender) { _ in calls.append(-1) }.store(in: &bag)
            bus.trigger(Ping(value: 1), from: sender)
            #expect(bus.subscriptionCount == 2)
        }
        #expect(gone == nil)
        #expect(bus.subscriptionCount == 0)
        // A new object may reuse the address; it must not inherit the subscriptions.
        for value in 2..<50 {
            let newcomer = Sender()
            bus.trigger(Ping(value: value), from: newcomer)
        }
        #expect(calls.entries == [1, -1])
    }

    @Test("watching every event from a sender receives typed and named events")
    func senderOnly() {
        let bus = Bus()
        let sender = Sender()
        let calls = Log<String>()
        let token = bus.watch(from: sender) { event in
            switch event {
            case let ping as Ping: calls.append("ping \(ping.value)")
            case let named as NamedEvent: calls.append("named \(named.name)")
            default: calls.append("other")
            }
        }
        bus.trigger(Ping(value: 1), from: sender)
        bus.trigger("saved", from: sender)
        bus.trigger(Ping(value: 2))
        #expect(calls.entries == ["ping 1", "named saved"])
        token.cancel()
    }

    @Test("unwatch(from:) ends every subscription filtering on that sender only")
    func unwatchSender() {
        let bus = Bus()
        let sender = Sender()
        let calls = Log<String>()
        var bag = Subscriptions()
        bus.watch(Ping.self, from: sender) { _ in calls.append("typed") }.store(in: &bag)
        bus.watch("x", from: sender) { _ in calls.append("named") }.store(in: &bag)
        bus.watch(from: sender) { _ in calls.append("all") }.store(in: &bag)
        bus.watch(Ping.self) { _ in calls.append("everyone") }.store(in: &bag)
        bus.unwatch(from: sender)
        bus.trigger(Ping(value: 1), from: sender)
        bus.trigger("x", from: sender)
        #expect(calls.entries == ["everyone"])
        #expect(bus.subscriptionCount == 1)
    }

    @Test("many short-lived senders do not accumulate")
    func sweep() {
        let bus = Bus()
        var bag = Subscriptions()
        for _ in 0..<2_000 {
            let sender = Sender()
            bus.watch(Ping.self, from: sender) { _ in }.store(in: &bag)
        }
        #expect(bus.subscriptionCount == 0)
        #expect(bus.liveSubscriptions.isEmpty)
    }
}

@Suite("Named events and unwatching")
struct NamedEventTests {
    @Test("named events carry their data")
    func data() {
        let bus = Bus()
        let seen = Log<NamedEvent>()
        let token = bus.watch("network:on") { seen.append($0) }
        bus.trigger("network:on", data: ["count": 3, "host": "example.org"])
        bus.trigger("network:off")
        let event = seen.entries.first
        #expect(seen.count == 1)
        #expect(event?.data["count"] as? Int == 3)
        #expect(event?.data["host"] as? String == "example.org")
        token.cancel()
    }

    @Test("triggering a NamedEvent value is the same as triggering by name")
    func namedValue() {
        let bus = Bus()
        let seen = Log<String>()
        let token = bus.watch("go") { seen.append($0.name) }
        bus.trigger(NamedEvent(name: "go"))
        #expect(seen.entries == ["go"])
        token.cancel()
    }

    @Test("unwatch by name, by name and sender, by type, by type and sender, and all")
    func unwatching() {
        let bus = Bus()
        let sender = Sender()
        let calls = Log<String>()
        var bag = Subscriptions()
        bus.watch("a") { _ in calls.append("a") }.store(in: &bag)
        bus.watch("a", from: sender) { _ in calls.append("a-from") }.store(in: &bag)
        bus.watch("b") { _ in calls.append("b") }.store(in: &bag)
        bus.watch(Ping.self) { _ in calls.append("ping") }.store(in: &bag)
        bus.watch(Ping.self, from: sender) { _ in calls.append("ping-from") }.store(in: &bag)
        bus.watch(Pong.self) { _ in calls.append("pong") }.store(in: &bag)

        bus.unwatch("a", from: sender)
        bus.trigger("a", from: sender)
        #expect(calls.entries == ["a"])

        bus.unwatch("a")
        bus.trigger("a")
        bus.unwatch(Ping.self, from: sender)
        bus.trigger(Ping(value: 1), from: sender)
        #expect(calls.entries == ["a", "ping"])

        bus.unwatch(Ping.self)
        bus.trigger(Ping(value: 1))
        bus.trigger("b")
        #expect(calls.entries == ["a", "ping", "b"])

        bus.unwatchAll()
        bus.trigger("b")
        bus.trigger(Pong(value: 1))
        #expect(calls.entries == ["a", "ping", "b"])
        #expect(bus.subscriptionCount == 0)
        #expect(!bus.isClosed)
    }

    @Test("triggering with no subscribers, and unwatching what is not watched, is fine")
    func nothingThere() {
        let bus = Bus()
        bus.trigger(Ping(value: 1))
        bus.trigger("nobody", data: ["x": 1], from: Sender())
        bus.unwatch("nobody")
        bus.unwatch(Pong.self, from: Sender())
        bus.unwatch(from: Sender())
        bus.unwatchAll()
        #expect(bus.subscriptionCount == 0)
    }
}
