import EventBus
import Testing

@Suite("Event streams")
struct StreamTests {
    @Test("a stream delivers events triggered after it was made, in order")
    func delivers() async {
        let bus = Bus()
        let stream = bus.events(of: Ping.self, replayLast: false)
        for value in 0..<100 { bus.trigger(Ping(value: value)) }
        var seen: [Int] = []
        for await ping in stream {
            seen.append(ping.value)
            if seen.count == 100 { break }
        }
        #expect(seen == Array(0..<100))
        #expect(stream.droppedCount == 0)
    }

    @Test("a bounded stream counts what it dropped", arguments: [EventBuffering.newest(3), .oldest(3)])
    func countsDrops(buffering: EventBuffering) async {
        let bus = Bus()
        let stream = bus.events(of: Ping.self, replayLast: false, buffering: buffering)
        for value in 0..<100 { bus.trigger(Ping(value: value)) }
        stream.cancel()
        var seen: [Int] = []
        for await ping in stream { seen.append(ping.value) }
        #expect(stream.droppedCount == 97)
        #expect(seen.isEmpty)
    }

    @Test("a bounded stream keeps the newest or the oldest events")
    func keeps() async {
        let bus = Bus()
        let newest = bus.events(of: Ping.self, replayLast: false, buffering: .newest(3))
        let oldest = bus.events(of: Ping.self, replayLast: false, buffering: .oldest(3))
        for value in 0..<10 { bus.trigger(Ping(value: value)) }
        bus.close()
        var keptNew: [Int] = []
        var keptOld: [Int] = []
        for await ping in newest { keptNew.append(ping.value) }
        for await ping in oldest { keptOld.append(ping.value) }
        // Closing the bus cancels the streams; what they buffered is discarded with them.
        #expect(keptNew.isEmpty && keptOld.isEmpty)
        #expect(newest.droppedCount == 7 && oldest.droppedCount == 7)
    }

    @Test("breaking out of the loop ends the subscription")
    func breakEnds() async {
        let bus = Bus()
        bus.trigger(Ping(value: 1))
        for await _ in bus.events(of: Ping.self) { break }
        #expect(bus.subscriptionCount == 0)
    }

    @Test("a cancelled consuming task ends the subscription")
    func taskCancellation() async {
        let bus = Bus()
        let started = Log<Int>()
        let consumer = Task {
            for await ping in bus.events(of: Ping.self, replayLast: false) { started.append(ping.value) }
        }
        #expect(await eventually { bus.subscriptionCount == 1 })
        bus.trigger(Ping(value: 1))
        #expect(await eventually { started.count == 1 })
        consumer.cancel()
        await consumer.value
        #expect(await eventually { bus.subscriptionCount == 0 })
    }

    @Test("a stream filters by sender")
    func sender() async {
        let bus = Bus()
        let sender = Sender()
        let stream = bus.events(of: Ping.self, from: sender, replayLast: false)
        bus.trigger(Ping(value: 1))
        bus.trigger(Ping(value: 2), from: sender)
        for await ping in stream {
            #expect(ping.value == 2)
            break
        }
    }
}
