import Testing
import _KitSupport

@Suite("Deadline")
struct DeadlineTests {
    struct Failed: Error, Equatable {}

    @Test("a task that ends first gives its value")
    func valueInTime() async {
        let task = Task { 42 }
        #expect(await Deadline.value(of: task, within: .seconds(30)) == 42)
    }

    @Test("a task that throws first gives its error")
    func errorInTime() async throws {
        let task = Task { () throws(Failed) -> Int in throw Failed() }
        let result = try #require(await Deadline.result(of: task, within: .seconds(30)))
        #expect(throws: Failed.self) { try result.get() }
    }

    @Test("a task still running at the limit gives nil, and is neither cancelled nor waited for")
    func limitFirst() async {
        let gate = AsyncGate()
        let task = Task { () -> Bool in
            await gate.wait()
            return Task.isCancelled
        }
        let clock = ContinuousClock()
        let started = clock.now
        #expect(await Deadline.value(of: task, within: .milliseconds(50)) == nil)
        #expect(clock.now - started < .seconds(20))
        await gate.open()
        #expect(await task.value == false)
    }
}

/// Holds waiters until it is opened.
actor AsyncGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}
