import Foundation
import Testing
import _KitSupport

@testable import Operations

@Suite("The operation lifecycle")
struct LifecycleTests {
    /// An operation whose every callback records itself in `log`.
    func logged<Output, Failure>(
        _ operation: StatefulOperation<Output, Failure>, in log: EventLog, context: CallbackContext = .mainActor
    ) -> StatefulOperation<Output, Failure> {
        operation
            .onStart(on: context) { log.record("start") }
            .onReturn(on: context) { log.record("return") }
            .onSuccess(on: context) { log.record("success(\($0))") }
            .onFail(on: context) { log.record("fail(\($0))") }
            .onFinish(on: context) { log.record("finish:\(describe($0))") }
    }

    @Test("a successful operation calls start, return, success, finish — once each, in order")
    func successOrder() async throws {
        let log = EventLog()
        let op = logged(StatefulOperation(base: .none) { 42 }, in: log)
        op.start()
        #expect(try await op.value == 42)
        #expect(log.all == ["start", "return", "success(42)", "finish:succeeded(42)"])
    }

    @Test("a failing operation calls start, return, fail, finish, and its value throws the error")
    func failureOrder() async {
        let log = EventLog()
        let op = logged(
            StatefulOperation(base: .none) { () throws -> Int in throw LoginError.invalidCredentials }, in: log)
        await #expect(throws: LoginError.invalidCredentials) { try await op.value }
        #expect(
            log.all == ["start", "return", "fail(invalidCredentials)", "finish:failed(Invalid email and password.)"])
    }

    @Test("callbacks run on the main actor by default")
    func mainActorByDefault() async {
        let counter = MainCounter()
        let op = StatefulOperation(base: .none) { 1 }
            .onStart {
                MainActor.assertIsolated()
                counter.count += 1
            }
            .onFinish { _ in counter.count += 1 }
        _ = await op.outcome
        #expect(await counter.count == 2)
    }

    @Test("callbacks on the caller's context run on the actor that started the operation")
    func callerContext() async {
        let host = Host()
        let op = await host.startLogged()
        _ = await op.outcome
        #expect(await host.events == ["start on host", "finish on host"])
    }

    @Test("typed throws give typed failures to onFail and the outcome")
    func typedThrows() async {
        let failures = Locked<[LoginError]>([])
        let op = StatefulOperation(base: .none) { () async throws(LoginError) -> Int in throw .locked(minutes: 5) }
            .onFail(on: .caller) { (error: LoginError) in failures.withLock { $0.append(error) } }
        let outcome: OperationOutcome<Int, LoginError> = await op.outcome
        #expect(outcome.error == .locked(minutes: 5))
        #expect(failures.withLock { $0 } == [.locked(minutes: 5)])
    }

    @Test("cancelling running work skips success and fail but finishes cancelled after the work returned")
    func cancelWhileRunning() async {
        let log = EventLog()
        let started = Gate()
        let op = logged(
            StatefulOperation(base: .none) { () async throws -> Int in
                started.open()
                while !Task.isCancelled { await Task.yield() }
                log.record("work returned")
                throw CancellationError()
            }, in: log, context: .caller)
        op.start()
        await started.wait()
        op.cancel()
        op.cancel()
        #expect(await op.outcome.isCancelled)
        #expect(log.all == ["start", "work returned", "return", "finish:cancelled"])
    }

    @Test("cancelling before the start finishes at once with only the finish callback; start is then a no-op")
    func cancelBeforeStart() async {
        let log = EventLog()
        let ran = Locked(false)
        let op = logged(StatefulOperation(base: .none) { ran.withLock { $0 = true } }, in: log)
        op.cancel()
        op.start()
        #expect(await op.outcome.isCancelled)
        #expect(log.all == ["finish:cancelled"])
        #expect(ran.withLock { $0 } == false)
        #expect(op.isCancelled && op.isFinished)
    }

    @Test("work that throws CancellationError by itself ends cancelled")
    func workThrowsCancellation() async {
        let op = StatefulOperation(base: .none) { () throws -> Int in throw CancellationError() }
        #expect(await op.outcome.isCancelled)
    }

    @Test("starting twice runs the work once")
    func startTwice() async {
        let gauge = Gauge()
        let op = StatefulOperation(base: .none) { gauge.enter() }
        op.start()
        op.start()
        _ = await op.outcome
        op.start()
        #expect(gauge.total == 1)
    }

    @Test("awaiting the value starts an idle operation")
    func valueStarts() async throws {
        #expect(try await StatefulOperation(base: .none) { "hi" }.value == "hi")
    }

    @Test("callbacks added after the start are ignored")
    func lateCallbacks() async {
        let log = EventLog()
        let op = StatefulOperation(base: .none) { 1 }
        _ = await op.outcome
        op.onFinish(on: .caller) { _ in log.record("late") }
        #expect(log.all.isEmpty)
    }

    @Test("a base configuration's callbacks run before the operation's own")
    func baseRunsFirst() async {
        let log = EventLog()
        let base = OperationBase()
            .onFail(on: .caller) { log.record("base fail: \($0.userMessage)") }
            .onFinish(on: .caller) { log.record("base finish: \($0.isCancelled)") }
        let op = StatefulOperation(base: base) { () throws -> Int in throw LoginError.locked(minutes: 2) }
            .onFail(on: .caller) { _ in log.record("own fail") }
        _ = await op.outcome
        #expect(log.all == ["base fail: Account locked for 2 minutes.", "own fail", "base finish: false"])
    }

    @Test("the shared base is one line, and operations created afterwards use it")
    func sharedBase() async {
        let log = EventLog()
        let previous = OperationBase.shared
        OperationBase.shared = OperationBase().onFail { error in log.record(error.userMessage) }
        let op = StatefulOperation { () throws -> Int in throw LoginError.invalidCredentials }
        OperationBase.shared = previous
        _ = await op.outcome
        #expect(log.all.contains("Invalid email and password."))
    }

    @Test("the outcome and its helpers describe the ending")
    func outcomeHelpers() {
        let success = OperationOutcome<Int, LoginError>.succeeded(3)
        #expect(success.value == 3 && success.error == nil && !success.isCancelled)
        let failure = OperationOutcome<Int, LoginError>.failed(.invalidCredentials)
        #expect(failure.error == .invalidCredentials && failure.value == nil)
        #expect(OperationOutcome<Int, LoginError>.cancelled.erased.isCancelled)
    }

    @Test("a named operation reports its name")
    func naming() {
        #expect(StatefulOperation(base: .none) { 1 }.named("fetch user").lifecycle.name == "fetch user")
        #expect(StatefulOperation(base: .none) { 1 }.lifecycle.name.hasPrefix("operation 0x"))
    }
}

@MainActor
final class MainCounter: Sendable {
    var count = 0
    nonisolated init() {}
}

/// An actor that starts an operation whose callbacks ask for the caller's context.
actor Host {
    var events: [String] = []

    func append(_ event: String) { events.append(event) }

    func startLogged() -> StatefulOperation<Int, Never> {
        let op = StatefulOperation(base: .none) { () async throws(Never) -> Int in 1 }
            .onStart(on: .caller) { self.assumeIsolated { $0.append("start on host") } }
            .onFinish(on: .caller) { _ in self.assumeIsolated { $0.append("finish on host") } }
        op.start()
        return op
    }
}
