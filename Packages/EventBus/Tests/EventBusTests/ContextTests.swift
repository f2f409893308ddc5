import EventBus
import Foundation
import Testing

@Suite("Delivery contexts")
struct ContextTests {
    @Test("main-actor subscriptions run on the main actor, in trigger order")
    func mainActor() async {
        let bus = Bus()
        let seen = Log<Int>()
        let onMain = Log<Bool>()
        let token = bus.watch(Ping.self, on: .mainActor) { ping in
            onMain.append(isMainThread())
            seen.append(ping.value)
        }
        for value in 0..<50 { bus.trigger(Ping(value: value)) }
        #expect(await eventually { seen.count == 50 })
        #expect(seen.entries == Array(0..<50))
        #expect(onMain.entries.allSatisfy { $0 })
        token.cancel()
    }

    @Test("asynchronous subscriptions run in trigger order, off the triggering call")
    func asynchronous() async {
        let bus = Bus()
        let seen = Log<Int>()
        let token = bus.watch(Ping.self, on: .asynchronous) { seen.append($0.value) }
        for value in 0..<200 { bus.trigger(Ping(value: value)) }
        #expect(await eventually { seen.count == 200 })
        #expect(seen.entries == Array(0..<200))
        token.cancel()
    }

    @Test("a slow async subscriber does not block the others")
    func slowDoesNotBlock() async {
        let bus = Bus()
        let gate = Gate()
        let fast = Log<Int>()
        var bag = Subscriptions()
        bus.watchAsync(Ping.self) { _ in await gate.wait() }.store(in: &bag)
        bus.watch(Ping.self, on: .asynchronous) { fast.append($0.value) }.store(in: &bag)
        bus.watch(Ping.self) { fast.append($0.value + 1_000) }.store(in: &bag)
        for value in 0..<10 { bus.trigger(Ping(value: value)) }
        #expect(await eventually { fast.count == 20 })
        await gate.open()
        bag.cancelAll()
    }

    @Test("a throwing async subscriber is reported as HandlerFailed and the others carry on")
    func throwing() async {
        struct Boom: Error {}
        let bus = Bus()
        let failures = Log<String>()
        let others = Log<Int>()
        var bag = Subscriptions()
        bus.watch(HandlerFailed.self) { failures.append("\($0.eventType) \($0.error is Boom)") }.store(in: &bag)
        bus.watchAsync(Ping.self) { ping in if ping.value.isMultiple(of: 2) { throw Boom() } }.store(in: &bag)
        bus.watchAsync(Ping.self) { others.append($0.value) }.store(in: &bag)
        for value in 0..<4 { bus.trigger(Ping(value: value)) }
        #expect(await eventually { failures.count == 2 && others.count == 4 })
        #expect(failures.entries.allSatisfy { $0.hasSuffix("Ping true") })
        #expect(others.entries == [0, 1, 2, 3])
    }

    @Test("a cancelled async subscription gets nothing more, even what was queued")
    func cancelledAsync() async {
        let bus = Bus()
        let gate = Gate()
        let seen = Log<Int>()
        let token = bus.watchAsync(Ping.self) { ping in
            seen.append(ping.value)
            await gate.wait()
        }
        for value in 0..<5 { bus.trigger(Ping(value: value)) }
        #expect(await eventually { seen.count == 1 })
        token.cancel()
        await gate.open()
        let other = Log<Int>()
        let probe = bus.watch(Ping.self, on: .asynchronous) { other.append($0.value) }
        bus.trigger(Ping(value: 9))
        #expect(await eventually { other.count == 1 })
        #expect(seen.entries == [0])
        probe.cancel()
    }
}

/// Whether the caller runs on the main actor: `assumeIsolated` traps if not, which fails the run loudly.
private func isMainThread() -> Bool {
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
        return MainActor.assumeIsolated { true }
    }
    return true
}

/// Blocks async handlers until opened.
actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}
