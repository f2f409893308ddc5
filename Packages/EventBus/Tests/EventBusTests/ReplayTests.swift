import EventBus
import Testing

@Suite("Sticky events")
struct ReplayTests {
    @Test("a subscriber may ask for the last event of its type")
    func replay() {
        let bus = Bus()
        bus.trigger(Ping(value: 1))
        bus.trigger(Ping(value: 2))
        let calls = Log<Int>()
        let token = bus.watch(Ping.self, replayLast: true) { calls.append($0.value) }
        #expect(calls.entries == [2])
        bus.trigger(Ping(value: 3))
        #expect(calls.entries == [2, 3])
        let plain = bus.watch(Ping.self) { calls.append($0.value * 100) }
        #expect(calls.entries == [2, 3])
        withExtendedLifetime((token, plain)) {}
    }

    @Test("replay honours the sender filter and the name")
    func replayFiltered() {
        let bus = Bus()
        let sender = Sender()
        bus.trigger(Big(a: 1), from: sender)
        bus.trigger(Big(a: 2))
        bus.trigger("x", data: ["n": 1])
        let calls = Log<String>()
        var bag = Subscriptions()
        bus.watch(Big.self, from: sender, replayLast: true) { calls.append("from \($0.a)") }.store(in: &bag)
        bus.watch(Big.self, replayLast: true) { calls.append("any \($0.a)") }.store(in: &bag)
        bus.watch("x", replayLast: true) { calls.append("x \($0.data["n"] as? Int ?? 0)") }.store(in: &bag)
        bus.watch("y", replayLast: true) { _ in calls.append("y") }.store(in: &bag)
        #expect(calls.entries == ["any 2", "x 1"])
    }

    @Test("the last event of a deallocated sender is not replayed to a newcomer at its address")
    func replayDeadSender() {
        let bus = Bus()
        do { bus.trigger(Ping(value: 1), from: Sender()) }
        let calls = Log<Int>()
        var bag = Subscriptions()
        for _ in 0..<20 {
            bus.watch(Ping.self, from: Sender(), replayLast: true) { calls.append($0.value) }.store(in: &bag)
        }
        #expect(calls.entries.isEmpty)
    }
}
