// swift-format-ignore-file
import EventBus
import Testing

// The issue's "must compile and behave as written" snippet, unchanged (so this file is not
// reformatted): its import and type declarations at file scope, the rest in a function.
struct NetworkActivity: Event { var active: Bool }     // Event = Sendable marker protocol
final class Model: Sendable {}

@Suite("README snippet")
struct ReadmeSnippetTests {
    func snippet() async {
        let model = Model()

        let bus = Bus()
        var bag = Subscriptions()                              // cancels everything it holds on deinit
        bus.watch(NetworkActivity.self) { event in print(event.active) }.store(in: &bag)
        let token = bus.watch(NetworkActivity.self, from: model) { _ in print("from model") }
        bus.trigger(NetworkActivity(active: true))             // no sender
        bus.trigger(NetworkActivity(active: false), from: model)

        bus.watch("network:on") { event in print(event.name, event.data["count"] as Any) }.store(in: &bag)
        bus.trigger("network:on", data: ["count": 1])          // named events, iStructure style
        token.cancel()
        bus.unwatch("network:on")                              // by name; also by sender, and all
        for await activity in bus.events(of: NetworkActivity.self) { print(activity); break }
    }

    @Test("the snippet runs to the end")
    func runs() async {
        await snippet()
    }

    @Test("the snippet's subscriptions see what the snippet says")
    func behaves() async {
        let model = Model()
        let bus = Bus()
        let seen = Log<String>()
        var bag = Subscriptions()
        bus.watch(NetworkActivity.self) { seen.append("any \($0.active)") }.store(in: &bag)
        let token = bus.watch(NetworkActivity.self, from: model) { _ in seen.append("from model") }
        bus.trigger(NetworkActivity(active: true))
        bus.trigger(NetworkActivity(active: false), from: model)
        bus.watch("network:on") { seen.append("\($0.name) \($0.data["count"] as? Int ?? -1)") }.store(in: &bag)
        bus.trigger("network:on", data: ["count": 1])
        token.cancel()
        bus.unwatch("network:on")
        bus.trigger("network:on", data: ["count": 2])
        bus.trigger(NetworkActivity(active: true), from: model)
        var streamed: [Bool] = []
        for await activity in bus.events(of: NetworkActivity.self) {
            streamed.append(activity.active)
            break
        }
        #expect(
            seen.entries == ["any true", "any false", "from model", "network:on 1", "any true"])
        #expect(streamed == [true])
        #expect(bus.subscriptionCount == 1)
        bag.cancelAll()
        #expect(bus.subscriptionCount == 0)
    }
}
