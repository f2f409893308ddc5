import Foundation
import Testing
import _KitSupport

@testable import Operations

@Suite("Progress")
struct ProgressTests {
    @Test("an operation's progress is an AsyncSequence that ends when the operation finishes")
    func progressSequence() async {
        let gate = Gate()
        let op = StatefulOperation(
            base: .none,
            reportingProgress: { progress in
                await gate.wait()
                progress.report(0.5, "Halfway")
                progress.report(2, "Done")
                return "ok"
            })
        let updates = op.progress
        op.start()
        gate.open()
        var reports: [ProgressReport] = []
        for await report in updates { reports.append(report) }
        #expect(
            reports == [
                ProgressReport(fraction: 0.5, message: "Halfway"), ProgressReport(fraction: 1, message: "Done"),
            ])
        #expect(op.currentProgress?.fraction == 1)
        var late: [ProgressReport] = []
        for await report in op.progress { late.append(report) }
        #expect(late == [ProgressReport(fraction: 1, message: "Done")])
    }

    @Test("fractions are clamped and NaN counts as zero")
    func clamping() {
        #expect(ProgressReport(fraction: -1).fraction == 0)
        #expect(ProgressReport(fraction: .nan).fraction == 0)
        ProgressReporter.discarding.report(0.3)
    }
}

@Suite("Chaining")
struct ChainingTests {
    @Test("then passes each result to the next operation")
    func passesResults() async throws {
        let chain = StatefulOperation(base: .none) { 20 }
            .then { value in StatefulOperation(base: .none) { value + 1 } }
            .then { value in StatefulOperation(base: .none) { "\(value * 2)" } }
        #expect(try await chain.value == "42")
    }

    @Test("a validator that refuses the result stops the chain")
    func validatorStops() async {
        let ran = Locked(false)
        let chain = StatefulOperation(base: .none) { -1 }
            .validate("a positive number") { $0 > 0 }
            .then { _ in StatefulOperation(base: .none) { ran.withLock { $0 = true } } }
        let outcome = await chain.outcome
        #expect(outcome.error as? OperationError == .validationFailed("a positive number"))
        #expect(!ran.withLock { $0 })
    }

    @Test("a failing step fails the chain with its error")
    func failingStep() async {
        let chain = StatefulOperation(base: .none) { () throws -> Int in throw LoginError.invalidCredentials }
            .then { value in StatefulOperation(base: .none) { value } }
        #expect(await chain.outcome.error as? LoginError == .invalidCredentials)
    }

    @Test("cancelling the chain cancels the running step")
    func cancelChain() async {
        let started = Gate()
        let step = StatefulOperation(base: .none) { () async throws -> Int in
            started.open()
            while !Task.isCancelled { await Task.yield() }
            throw CancellationError()
        }
        let chain = step.then { value in StatefulOperation(base: .none) { value } }
        chain.start()
        await started.wait()
        chain.cancel()
        #expect(await chain.outcome.isCancelled)
        #expect(await step.outcome.isCancelled)
    }
}

@Suite("Main-thread helpers")
struct MainDispatcherTests {
    @Test("run executes at once on the main actor")
    @MainActor
    func runNowOnMain() {
        guard Thread.isMainThread else { return }
        var ran = false
        let immediate = MainDispatcher.run { ran = true }
        #expect(immediate && ran)
    }

    @Test("run from elsewhere, and later, reach the main actor")
    func runLater() async {
        await withCheckedContinuation { continuation in
            MainDispatcher.later { continuation.resume() }
        }
        let value = await MainDispatcher.value { 5 }
        #expect(value == 5)
        await withCheckedContinuation { continuation in
            Task.detached { MainDispatcher.run { continuation.resume() } }
        }
    }
}
