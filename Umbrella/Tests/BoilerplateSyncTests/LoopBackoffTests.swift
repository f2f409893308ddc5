import Foundation
import Networking
import Storage
import Testing

@testable import BoilerplateSync

/// After a failed round the loop tries again on its own, soon, and less often while failures
/// go on: an outbox never waits a whole period (or for the next local write) behind a blip.
@Suite struct LoopBackoffTests {
    @Test func aFailedRoundIsTriedAgainWithoutAnotherWrite() async throws {
        try await withServer { server in
            try await withFolder { folder in
                // The period is an hour: only the backoff can bring the second round.
                let a = try Device.open("a", in: folder, server: server, failureBackoff: .milliseconds(50))
                server.switches.failing = true
                try await a.store.insert(Note(id: "n", text: "waiting"))
                a.engine.start()
                defer { a.engine.stop() }
                try await waitUntil {
                    a.engine.state.lastError == .server(status: 500, reason: nil, request: "POST notes")
                }
                #expect(try await a.store.pendingCount() == 1)
                server.switches.failing = false
                try await waitUntil { a.engine.state.pendingCount == 0 && a.engine.state.lastError == nil }
                #expect(try await server.notes()["n"]?.text == "waiting")
            }
        }
    }

    @Test func aPauseIsNotRetried() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server, failureBackoff: .milliseconds(10))
                server.switches.forbid = true
                try await a.store.insert(Note(id: "n", text: "waiting"))
                a.engine.start()
                defer { a.engine.stop() }
                try await waitUntil { a.engine.state.pause == .unauthorized(status: 403) && a.engine.loopPasses >= 1 }
                let requests = server.switches.requests
                let passes = a.engine.loopPasses
                // Thirty backoffs' worth: a paused engine sends nothing until resumed, and passes
                // at most once more (the insert's wake-up, which finds the pause and skips).
                try await Task.sleep(for: .milliseconds(300))
                #expect(server.switches.requests == requests)
                #expect(a.engine.loopPasses <= passes + 1)
            }
        }
    }

    @Test func theWaitDoublesUpToThePeriodAndAGoodRoundResetsIt() {
        var delay = LoopDelay(
            SyncEngineConfiguration<Note>(interval: .seconds(5), failureBackoff: .seconds(1)))
        let failed = PassOutcome.failed(serverAskedToWait: nil)
        let failing = (1...5).map { _ in delay.after(failed) }
        #expect(failing == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
        #expect(delay.after(.done) == .seconds(5))
        #expect(delay.after(failed) == .seconds(1))
        // Thousands of failures in a row neither overflow nor pass the period.
        for _ in 0..<10_000 { _ = delay.after(failed) }
        #expect(delay.after(failed) == .seconds(5))
    }

    @Test func aServersRetryAfterIsHonouredBeyondThePeriodUpToADay() {
        var delay = LoopDelay(
            SyncEngineConfiguration<Note>(interval: .seconds(60), failureBackoff: .seconds(1)))
        #expect(delay.after(.failed(serverAskedToWait: .seconds(300))) == .seconds(300))
        // A shorter wish than the backoff does not shorten it.
        #expect(delay.after(.failed(serverAskedToWait: .zero)) == .seconds(2))
        #expect(delay.after(.failed(serverAskedToWait: .seconds(10 * 86_400))) == .seconds(86_400))
    }

    @Test func theLoopWaitsAsLongAsTheServerAsks() async throws {
        try await withServer { server in
            try await withFolder { folder in
                // Retry-After: 120 is over the policy's 60 s limit, so the round fails at once;
                // the backoff (10 ms) alone would come back a hundred times a second.
                let a = try Device.open("a", in: folder, server: server, failureBackoff: .milliseconds(10))
                a.engine.start()
                defer { a.engine.stop() }
                // A first pass with nothing to send, so the insert's wake-up brings exactly one.
                try await waitUntil { a.engine.loopPasses >= 1 }
                server.switches.throttle = 1_000
                server.switches.throttleRetryAfter = "120"
                try await a.store.insert(Note(id: "n", text: "waiting"))
                try await waitUntil { a.engine.state.lastError != nil && a.engine.loopPasses >= 2 }
                let requests = server.switches.requests
                try await Task.sleep(for: .milliseconds(300))
                #expect(server.switches.requests == requests)
                #expect(a.engine.state.lastError == .server(status: 429, reason: nil, request: "POST notes"))
            }
        }
    }
}
