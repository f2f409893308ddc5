import EventBus
import Testing

@Suite("Delivery order")
struct OrderingTests {
    @Test("subscribers are called in registration order", arguments: [1, 5, 50, 200])
    func registrationOrder(count: Int) {
        let bus = Bus()
        let calls = Log<Int>()
        let tokens = (0..<count).map { index in bus.watch(Ping.self) { _ in calls.append(index) } }
        bus.trigger(Ping(value: 0))
        #expect(calls.entries == Array(0..<count))
        withExtendedLifetime(tokens) {}
    }

    @Test("registration order holds across type, sender and sender-only subscriptions")
    func mixedOrder() {
        let bus = Bus()
        let sender = Sender()
        let calls = Log<String>()
        var bag = Subscriptions()
        for index in 0..<12 {
            switch index % 4 {
            case 0: bus.watch(Ping.self) { _ in calls.append("type\(index)") }.store(in: &bag)
            case 1: bus.watch(Ping.self, from: sender) { _ in calls.append("sender\(index)") }.store(in: &bag)
            case 2: bus.watch(from: sender) { _ in calls.append("all\(index)") }.store(in: &bag)
            default: bus.watch(Pong.self, from: sender) { _ in calls.append("other\(index)") }.store(in: &bag)
            }
        }
        bus.trigger(Ping(value: 1), from: sender)
        #expect(
            calls.entries == [
                "type0", "sender1", "all2", "type4", "sender5", "all6", "type8", "sender9", "all10",
            ])
    }

    @Test("named subscriptions by name, by type and by sender are merged in registration order")
    func namedOrder() {
        let bus = Bus()
        let sender = Sender()
        let calls = Log<String>()
        var bag = Subscriptions()
        bus.watch(NamedEvent.self) { _ in calls.append("every-named") }.store(in: &bag)
        bus.watch("save", from: sender) { _ in calls.append("save-from") }.store(in: &bag)
        bus.watch(from: sender) { _ in calls.append("all-from") }.store(in: &bag)
        bus.watch("save") { _ in calls.append("save") }.store(in: &bag)
        bus.watch("load") { _ in calls.append("load") }.store(in: &bag)
        bus.trigger("save", from: sender)
        bus.trigger("save")
        #expect(calls.entries == ["every-named", "save-from", "all-from", "save", "every-named", "save"])
    }

    @Test("an event triggered inside a handler is delivered after the current one, to everybody")
    func breadthFirst() {
        let bus = Bus()
        let calls = Log<String>()
        var bag = Subscriptions()
        bus.watch(Ping.self) { ping in
            calls.append("a ping\(ping.value)")
            if ping.value == 1 {
                bus.trigger(Ping(value: 2))
                bus.trigger(Pong(value: 1))
                calls.append("a returned")
            }
        }.store(in: &bag)
        bus.watch(Ping.self) { calls.append("b ping\($0.value)") }.store(in: &bag)
        bus.watch(Pong.self) { calls.append("c pong\($0.value)") }.store(in: &bag)
        bus.trigger(Ping(value: 1))
        #expect(
            calls.entries == [
                "a ping1", "a returned", "b ping1", "a ping2", "b ping2", "c pong1",
            ])
    }

    @Test("chains of re-entrant triggers keep trigger order with no inversions")
    func noInversions() {
        let bus = Bus()
        let seenByFirst = Log<Int>()
        let seenByLast = Log<Int>()
        var bag = Subscriptions()
        bus.watch(Ping.self) { ping in
            seenByFirst.append(ping.value)
            if ping.value < 20 {
                bus.trigger(Ping(value: ping.value * 2))
                bus.trigger(Ping(value: ping.value * 2 + 1))
            }
        }.store(in: &bag)
        bus.watch(Ping.self) { seenByLast.append($0.value) }.store(in: &bag)
        bus.trigger(Ping(value: 1))
        #expect(seenByFirst.entries == Array(1..<40))
        #expect(seenByLast.entries == seenByFirst.entries)
    }

    @Test("a trigger on another bus from a handler is delivered at once")
    func otherBusIsImmediate() {
        let first = Bus()
        let second = Bus()
        let calls = Log<String>()
        var bag = Subscriptions()
        first.watch(Ping.self) { _ in
            second.trigger(Pong(value: 1))
            calls.append("first done")
        }.store(in: &bag)
        second.watch(Pong.self) { _ in calls.append("second") }.store(in: &bag)
        first.trigger(Ping(value: 1))
        #expect(calls.entries == ["second", "first done"])
    }

    @Test("each thread's triggers reach a subscriber in the order that thread made them")
    func perThreadOrder() async {
        let bus = Bus()
        let seen = Log<Ping>()
        let token = bus.watch(Ping.self) { seen.append($0) }
        await withTaskGroup(of: Void.self) { group in
            for source in 0..<4 {
                group.addTask {
                    for step in 0..<500 { bus.trigger(Ping(value: source * 10_000 + step)) }
                }
            }
        }
        for source in 0..<4 {
            let mine = seen.entries.map(\.value).filter { $0 / 10_000 == source }
            #expect(mine == (0..<500).map { source * 10_000 + $0 })
        }
        token.cancel()
    }

    @Test("a subscription made inside a handler misses the current event and gets the next")
    func watchInsideHandler() {
        let bus = Bus()
        let calls = Log<String>()
        let added = Log<WatchToken>()
        let token = bus.watch(Ping.self) { ping in
            calls.append("first \(ping.value)")
            if ping.value == 1 {
                added.append(bus.watch(Ping.self) { calls.append("added \($0.value)") })
                bus.trigger(Ping(value: 2))
            }
        }
        bus.trigger(Ping(value: 1))
        #expect(calls.entries == ["first 1", "first 2", "added 2"])
        token.cancel()
        added.entries.forEach { $0.cancel() }
    }
}
