import EventBus
import Foundation
import Testing

/// A stream's consumer that waits (finds nothing queued) is handed the next event directly, and
/// is released with nil when the subscription ends however it ends — never left suspended.
@Suite("Stream hand-off to a waiting consumer")
struct StreamHandOffTests {
    @Test("a consumer waiting on an empty stream gets events triggered from another thread, in order")
    func waitingConsumer() async {
        let bus = Bus()
        let stream = bus.events(of: Ping.self, replayLast: false)
        let consumer = Task {
            var seen: [Int] = []
            for await ping in stream {
                seen.append(ping.value)
                if seen.count == 1_000 { break }
            }
            return seen
        }
        // Trigger from a thread of its own, so the consumer waits and is woken many times.
        let producer = Thread {
            for value in 0..<1_000 {
                bus.trigger(Ping(value: value))
                if value.isMultiple(of: 50) { usleep(200) }
            }
        }
        producer.start()
        #expect(await consumer.value == Array(0..<1_000))
        #expect(stream.droppedCount == 0)
    }

    @Test("closing the bus releases a waiting consumer with the end of the stream")
    func closeReleasesWaiter() async {
        let bus = Bus()
        let stream = bus.events(of: Ping.self, replayLast: false)
        let consumer = Task {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        #expect(await eventually { bus.subscriptionCount == 1 })
        try? await Task.sleep(for: .milliseconds(20))
        bus.close()
        #expect(await consumer.value == 0)
    }

    @Test("cancelling the stream from another task releases a waiting consumer")
    func cancelReleasesWaiter() async {
        let bus = Bus()
        let stream = bus.events(of: Ping.self, replayLast: false)
        let consumer = Task {
            for await _ in stream { return false }
            return true
        }
        try? await Task.sleep(for: .milliseconds(20))
        stream.cancel()
        #expect(await consumer.value)
        #expect(bus.subscriptionCount == 0)
    }

    @Test("a consumer whose task is cancelled before it asks gets nothing, and the subscription ends")
    func cancelledBeforeAsking() async {
        let bus = Bus()
        let stream = bus.events(of: Ping.self, replayLast: false)
        bus.trigger(Ping(value: 1))
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var seen: [Int] = []
            for await ping in stream { seen.append(ping.value) }
            return seen
        }
        #expect(await consumer.value.isEmpty)
        #expect(bus.subscriptionCount == 0)
    }

    @Test("two consumers iterating one stream at the same time: one gets the event, the other the end")
    func secondConsumer() async {
        let bus = Bus()
        let stream = bus.events(of: Ping.self, replayLast: false)
        let results = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    var iterator = stream.makeAsyncIterator()
                    return await iterator.next()?.value
                }
            }
            try? await Task.sleep(for: .milliseconds(50))
            bus.trigger(Ping(value: 7))
            // Whoever finishes first, the other is released by the end of the stream.
            var results: [Int?] = [await group.next() ?? nil]
            stream.cancel()
            while let result = await group.next() { results.append(result) }
            return results
        }
        #expect(results.count == 2)
        #expect(results.compactMap { $0 } == [7])
    }

    @Test(
        "a stream keeping no events still hands one to a waiting consumer",
        arguments: [EventBuffering.newest(0), .oldest(0)])
    func zeroBuffer(buffering: EventBuffering) async {
        let bus = Bus()
        let stream = bus.events(of: Ping.self, replayLast: false, buffering: buffering)
        bus.trigger(Ping(value: 1))
        #expect(stream.droppedCount == 1)
        let consumer = Task { () -> Int? in
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()?.value
        }
        try? await Task.sleep(for: .milliseconds(20))
        bus.trigger(Ping(value: 2))
        #expect(await consumer.value == 2)
    }
}
