import EventBus
import Testing

/// Watching and cancelling over and over (views and services that come and go): the token's
/// release and its cancel take short paths when they can, and these tests hold those paths to
/// exactly-once cancel and registration order.
@Suite("Watching and cancelling over and over")
struct WatchChurnTests {
    @Test("a token cancelled and then released does not end any other subscription")
    func cancelledTokenReleased() {
        let bus = Bus()
        let calls = Log<String>()
        let kept = bus.watch(Ping.self) { calls.append("kept \($0.value)") }
        for round in 0..<1_000 {
            let token = bus.watch(Ping.self) { calls.append("gone \($0.value)") }
            token.cancel()
            if round == 500 { bus.trigger(Ping(value: round)) }
        }
        bus.trigger(Ping(value: 1_000))
        #expect(calls.entries == ["kept 500", "kept 1000"])
        #expect(bus.subscriptionCount == 1)
        withExtendedLifetime(kept) {}
    }

    @Test("a token released without a cancel still ends its subscription, once")
    func releasedWithoutCancel() {
        let bus = Bus()
        let calls = Log<Int>()
        for round in 0..<1_000 {
            _ = bus.watch(Ping.self) { calls.append($0.value) }
            if round % 100 == 0 { bus.trigger(Ping(value: round)) }
        }
        #expect(calls.entries.isEmpty)
        #expect(bus.subscriptionCount == 0)
    }

    @Test("subscriptions with and without a sender, cancelled in any order, keep the others in order")
    func mixedSenders() {
        let bus = Bus()
        let sender = Sender()
        let calls = Log<String>()
        var tokens: [(name: String, token: WatchToken)] = []
        for index in 0..<12 {
            let name = index % 3 == 0 ? "from\(index)" : "any\(index)"
            let token =
                index % 3 == 0
                ? bus.watch(Ping.self, from: sender) { _ in calls.append(name) }
                : bus.watch(Ping.self) { _ in calls.append(name) }
            tokens.append((name, token))
        }
        // Newest first, oldest first and from the middle, with and without a sender.
        for index in [11, 0, 6, 5, 9] { tokens[index].token.cancel() }
        tokens[5].token.cancel()
        bus.trigger(Ping(value: 1), from: sender)
        let survivors = tokens.indices.filter { ![11, 0, 6, 5, 9].contains($0) }.map { tokens[$0].name }
        #expect(calls.entries == survivors)
        bus.trigger(Ping(value: 2))
        #expect(calls.entries.count == survivors.count + survivors.filter { $0.hasPrefix("any") }.count)
        #expect(bus.subscriptionCount == survivors.count)
    }

    @Test("a leak report names the class of a sender a subscription filters on")
    func leakReportNamesSenderClass() {
        let bus = Bus()
        let sender = Sender()
        let token = bus.watch(Ping.self, from: sender) { _ in }
        #expect(bus.liveSubscriptions.map(\.senderType) == ["Sender"])
        token.cancel()
        #expect(bus.liveSubscriptions.isEmpty)
    }
}
