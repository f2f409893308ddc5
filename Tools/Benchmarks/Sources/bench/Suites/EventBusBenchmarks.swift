import EventBus
import Foundation
import OpenCombine

/// Benchmarks of the EventBus package against its peers (see the package's issue for the targets).
enum EventBusBenchmarks {
    /// The typed event every case triggers.
    struct Tick: Event { var value: Int }

    /// Where handlers put what they receive, so that delivery cannot be optimised away.
    /// Benchmarks run on one thread at a time.
    final class Sink: @unchecked Sendable { var total = 0 }

    /// A sender for routing cases.
    final class Source: Sendable {}

    static func cases() async throws -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for count in [1, 10, 100] {
            cases.append(fanOutVersusNotificationCenter(subscribers: count))
            cases.append(fanOutVersusOpenCombine(subscribers: count))
        }
        cases.append(selectiveRouting())
        cases.append(churn())
        cases.append(streamThroughput())
        return cases
    }

    // MARK: Fan-out

    static func fanOutVersusNotificationCenter(subscribers count: Int) -> BenchmarkCase {
        let sink = Sink()
        let bus = Bus()
        let tokens = (0..<count).map { _ in bus.watch(Tick.self) { sink.total &+= $0.value } }
        let center = NotificationCenter()
        let name = Notification.Name("tick")
        let observers = (0..<count).map { _ in
            center.addObserver(forName: name, object: nil, queue: nil) { note in
                sink.total &+= (note.userInfo?["event"] as? Tick)?.value ?? 0
            }
        }
        return BenchmarkCase(
            suite: "eventbus", name: "fan-out-\(count)-typed-vs-notificationcenter", peer: "NotificationCenter",
            target: 5,
            ours: { withExtendedLifetime(tokens) { bus.trigger(Tick(value: 1)) } },
            theirs: {
                withExtendedLifetime(observers) {
                    center.post(name: name, object: nil, userInfo: ["event": Tick(value: 1)])
                }
            })
    }

    static func fanOutVersusOpenCombine(subscribers count: Int) -> BenchmarkCase {
        let sink = Sink()
        let bus = Bus()
        let tokens = (0..<count).map { _ in bus.watch(Tick.self) { sink.total &+= $0.value } }
        let subject = PassthroughSubject<Tick, Never>()
        let cancellables = (0..<count).map { _ in subject.sink { sink.total &+= $0.value } }
        return BenchmarkCase(
            suite: "eventbus", name: "fan-out-\(count)-typed-vs-opencombine", peer: "OpenCombine", target: 1.5,
            ours: { withExtendedLifetime(tokens) { bus.trigger(Tick(value: 1)) } },
            theirs: { withExtendedLifetime(cancellables) { subject.send(Tick(value: 1)) } })
    }

    // MARK: Selective routing

    /// 1 000 subscriptions spread over 100 routes (10 event names × 10 senders, 10 each); one
    /// trigger reaches the 10 of one route. The metrics compare the same trigger on a bus that
    /// holds only those 10 subscriptions: equal costs mean the cost grows with matches only.
    static func selectiveRouting() -> BenchmarkCase {
        let sink = Sink()
        let sources = (0..<10).map { _ in Source() }
        let names = (0..<10).map { "route-\($0)" }
        let full = Bus()
        let small = Bus()
        var bag = EventBus.Subscriptions()
        for name in names {
            for source in sources {
                for _ in 0..<10 {
                    full.watch(name, from: source) { _ in sink.total &+= 1 }.store(in: &bag)
                }
            }
        }
        for _ in 0..<10 {
            small.watch(names[3], from: sources[7]) { _ in sink.total &+= 1 }.store(in: &bag)
        }
        let center = NotificationCenter()
        let observers = names.flatMap { name in
            sources.flatMap { source in
                (0..<10).map { _ in
                    center.addObserver(forName: Notification.Name(name), object: source, queue: nil) { _ in
                        sink.total &+= 1
                    }
                }
            }
        }
        let routedName = Notification.Name(names[3])
        return BenchmarkCase(
            suite: "eventbus", name: "selective-routing-1000", peer: "NotificationCenter", target: nil,
            ours: { withExtendedLifetime(bag) { full.trigger(names[3], from: sources[7]) } },
            theirs: { withExtendedLifetime(observers) { center.post(name: routedName, object: sources[7]) } },
            metrics: {
                let withAll = time { full.trigger(names[3], from: sources[7]) }
                let withMatchesOnly = time { small.trigger(names[3], from: sources[7]) }
                return [
                    "ns_1000_subscriptions": withAll, "ns_10_subscriptions": withMatchesOnly,
                    "growth": withAll / withMatchesOnly,
                ]
            })
    }

    // MARK: Churn

    static func churn() -> BenchmarkCase {
        let bus = Bus()
        let center = NotificationCenter()
        let name = Notification.Name("churn")
        return BenchmarkCase(
            suite: "eventbus", name: "churn-10000-subscribe-cancel", peer: "NotificationCenter", target: 10,
            ours: {
                for _ in 0..<10_000 { bus.watch(Tick.self) { _ in }.cancel() }
            },
            theirs: {
                for _ in 0..<10_000 {
                    let observer = center.addObserver(forName: name, object: nil, queue: nil) { _ in }
                    center.removeObserver(observer)
                }
            })
    }

    // MARK: Streams

    /// 1 000 events through `events(of:)` versus through a bare `AsyncStream`.
    static func streamThroughput() -> BenchmarkCase {
        let bus = Bus()
        return BenchmarkCase(
            suite: "eventbus", name: "async-stream-1000", peer: "AsyncStream", target: 1,
            ours: {
                let stream = bus.events(of: Tick.self, replayLast: false)
                for value in 0..<1_000 { bus.trigger(Tick(value: value)) }
                var received = 0
                for await _ in stream {
                    received += 1
                    if received == 1_000 { break }
                }
            },
            theirs: {
                let (stream, continuation) = AsyncStream.makeStream(of: Tick.self)
                for value in 0..<1_000 { continuation.yield(Tick(value: value)) }
                var received = 0
                for await _ in stream {
                    received += 1
                    if received == 1_000 { break }
                }
            })
    }

    /// Nanoseconds per call of `body`, best of a few samples.
    static func time(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        var best = Double.infinity
        for _ in 0..<5 {
            let start = clock.now
            for _ in 0..<20_000 { body() }
            best = min(best, Measurement.nanoseconds(start.duration(to: clock.now)) / 20_000)
        }
        return best
    }
}
