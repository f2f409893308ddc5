import EventBus
import Testing

@Suite("Scoped buses, recording and leaks")
struct ScopedBusTests {
    @Test("a scoped bus delivers to its subscribers, then forwards to its parent")
    func forwards() {
        let app = Bus()
        let calls = Log<String>()
        var bag = Subscriptions()
        app.watch(Ping.self) { calls.append("app \($0.value)") }.store(in: &bag)
        app.watch("saved") { _ in calls.append("app saved") }.store(in: &bag)
        let screen = app.scoped()
        screen.watch(Ping.self) { calls.append("screen \($0.value)") }.store(in: &bag)
        screen.trigger(Ping(value: 1))
        screen.trigger("saved")
        app.trigger(Ping(value: 2))
        #expect(calls.entries == ["screen 1", "app 1", "app saved", "app 2"])
    }

    @Test("releasing a scoped bus tears down its subscriptions, not the parent's")
    func teardown() {
        let app = Bus()
        let calls = Log<String>()
        let appToken = app.watch(Ping.self) { calls.append("app \($0.value)") }
        var screen: Bus? = app.scoped()
        let screenToken = screen?.watch(Ping.self) { calls.append("screen \($0.value)") }
        screen = nil
        #expect(screenToken?.isCancelled == true)
        app.trigger(Ping(value: 1))
        #expect(calls.entries == ["app 1"])
        #expect(!appToken.isCancelled)
    }

    @Test("re-entrant triggers on a scoped bus reach the parent in order")
    func scopedBreadthFirst() {
        let app = Bus()
        let screen = app.scoped()
        let calls = Log<Int>()
        var bag = Subscriptions()
        screen.watch(Ping.self) { if $0.value == 1 { screen.trigger(Ping(value: 2)) } }.store(in: &bag)
        app.watch(Ping.self) { calls.append($0.value) }.store(in: &bag)
        screen.trigger(Ping(value: 1))
        #expect(calls.entries == [1, 2])
    }

    @Test("a closed bus ignores triggers and hands out cancelled tokens")
    func closed() {
        let bus = Bus()
        let calls = Log<Int>()
        let token = bus.watch(Ping.self) { calls.append($0.value) }
        bus.close()
        bus.trigger(Ping(value: 1))
        let late = bus.watch(Ping.self) { calls.append($0.value) }
        #expect(bus.isClosed && token.isCancelled && late.isCancelled)
        #expect(calls.entries.isEmpty)
    }

    @Test("a recorder sees every trigger in order, with names and senders")
    func recorder() {
        let bus = Bus()
        let sender = Sender()
        let recorder = bus.startRecording()
        bus.trigger(Ping(value: 1))
        bus.trigger("saved", data: ["id": 5], from: sender)
        bus.trigger(Pong(value: 2), from: sender)
        bus.trigger(Ping(value: 3))
        #expect(recorder.events(of: Ping.self).map(\.value) == [1, 3])
        #expect(recorder.names == ["saved"])
        #expect(recorder.triggers.map { $0.isFrom(sender) } == [false, true, true, false])
        #expect(recorder.triggers[2].senderType == "Sender")
        recorder.stop()
        bus.trigger(Ping(value: 4))
        #expect(recorder.triggers.count == 4)
    }

    @Test("a leak check names the subscriptions still alive and where they were made")
    func leaks() {
        let bus = Bus()
        let before = bus.watch(Pong.self) { _ in }
        let check = bus.leakCheck()
        var bag = Subscriptions()
        bus.watch(Ping.self) { _ in }.store(in: &bag)
        let sender = Sender()
        let leaked = bus.watch("x", from: sender) { _ in }
        bag.cancelAll()
        let leaks = check.leaks
        #expect(leaks.count == 1)
        #expect(leaks.first?.topic == "\"x\"")
        #expect(leaks.first?.senderType == "Sender")
        #expect(leaks.first?.file.hasSuffix("ScopedBusTests.swift") == true)
        #expect(leaks.first?.description.contains("from Sender, watched at") == true)
        leaked.cancel()
        #expect(check.leaks.isEmpty)
        #expect(bus.liveSubscriptions.map(\.topic) == ["EventBusTests.Pong"])
        before.cancel()
    }
}
