import EventBus
import Testing

@Suite("Concurrency")
struct StressTests {
    @Test("many tasks trigger, watch and cancel at once without losing or misdelivering events")
    func stress() async {
        let bus = Bus()
        let stable = Log<Int>()
        let stableToken = bus.watch(Ping.self) { stable.append($0.value) }
        let rounds = 300
        let tasks = 6
        let misdelivered = Log<String>()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    let sender = Sender()
                    for round in 0..<rounds {
                        // Watch, trigger, cancel, and check nothing reaches the cancelled one.
                        let calls = Log<Int>()
                        let token = bus.watch(Ping.self, from: sender) { calls.append($0.value) }
                        let named = bus.watch("n\(task)") { _ in calls.append(-1) }
                        bus.trigger(Ping(value: task * 100_000 + round), from: sender)
                        bus.trigger("n\(task)")
                        token.cancel()
                        named.cancel()
                        bus.trigger(Ping(value: -1), from: sender)
                        bus.trigger("n\(task)")
                        if calls.entries != [task * 100_000 + round, -1] {
                            misdelivered.append("task \(task) round \(round): \(calls.entries)")
                        }
                        if round % 50 == 0 { _ = bus.liveSubscriptions }
                    }
                }
            }
            group.addTask {
                for _ in 0..<rounds {
                    let stream = bus.events(of: Pong.self, replayLast: false, buffering: .newest(4))
                    bus.trigger(Pong(value: 1))
                    for await _ in stream { break }
                }
            }
        }
        #expect(misdelivered.entries.isEmpty)
        // Every triggered Ping (tasks × rounds real ones and as many -1s) reached the stable subscriber.
        #expect(stable.count == tasks * rounds * 2)
        stableToken.cancel()
        #expect(bus.subscriptionCount == 0)
    }

    @Test("a cancel on another thread stops deliveries that have not started yet")
    func crossThreadCancel() async {
        let bus = Bus()
        for _ in 0..<50 {
            let afterCancel = Log<Int>()
            let cancelled = Log<Bool>()
            let token = bus.watch(Ping.self) { ping in
                if cancelled.count > 0 { afterCancel.append(ping.value) }
            }
            let trigger = Task {
                for value in 0..<200 { bus.trigger(Ping(value: value)) }
            }
            token.cancel()
            cancelled.append(true)
            await trigger.value
            // At most the one call already past its check when cancel() ran may land after it.
            #expect(afterCancel.count <= 1)
        }
    }

    @Test("triggers race with unwatching, scoped buses, recorders and leak checks without harm")
    func mixedStress() async {
        let bus = Bus()
        let senders = (0..<4).map { _ in Sender() }
        let delivered = Log<Int>()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<3 {
                group.addTask {
                    for round in 0..<400 {
                        bus.trigger(Ping(value: round), from: senders[(task + round) % senders.count])
                        bus.trigger("tick", data: ["round": round])
                    }
                }
            }
            group.addTask {
                for round in 0..<200 {
                    var bag = Subscriptions()
                    bus.watch(Ping.self, from: senders[round % senders.count]) { delivered.append($0.value) }
                        .store(in: &bag)
                    bus.watch(from: senders[(round + 1) % senders.count]) { _ in }.store(in: &bag)
                    bus.watch("tick", replayLast: true) { _ in }.store(in: &bag)
                    if round.isMultiple(of: 3) { bus.unwatch(from: senders[round % senders.count]) }
                    if round.isMultiple(of: 7) { bus.unwatch("tick") }
                    if round.isMultiple(of: 11) { bus.unwatchAll() }
                }
            }
            group.addTask {
                for round in 0..<200 {
                    let screen = bus.scoped()
                    let token = screen.watch(Pong.self) { _ in }
                    screen.trigger(Pong(value: round))
                    let recorder = bus.startRecording()
                    _ = bus.leakCheck().leaks
                    recorder.stop()
                    token.cancel()
                    if round.isMultiple(of: 2) { screen.close() }
                }
            }
        }
        #expect(bus.subscriptionCount == 0)
    }
}
