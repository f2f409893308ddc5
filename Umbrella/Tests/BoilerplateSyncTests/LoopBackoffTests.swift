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
                try await waitUntil { a.engine.state.lastError == .server(status: 500, reason: nil, request: "POST notes") }
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
                // The insert's wake-up may still bring one pass (which sees the pause and skips).
                try await Task.sleep(for: .milliseconds(100))
                let requests = server.switches.requests
                let passes = a.engine.loopPasses
                // Twenty backoffs' worth: a paused engine neither sends nor passes until resumed.
                try await Task.sleep(for: .milliseconds(200))
                #expect(server.switches.requests == requests)
                #expect(a.engine.loopPasses == passes)
            }
        }
    }

    @Test func theWaitDoublesUpToThePeriodAndAGoodRoundResetsIt() {
        var delay = LoopDelay(
            SyncEngineConfiguration<Note>(interval: .seconds(5), failureBackoff: .seconds(1)))
        let failing = (1...5).map { _ in delay.after(failed: true) }
        #expect(failing == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
        #expect(delay.after(failed: false) == .seconds(5))
        #expect(delay.after(failed: true) == .seconds(1))
        // Thousands of failures in a row neither overflow nor pass the period.
        for _ in 0..<10_000 { _ = delay.after(failed: true) }
        #expect(delay.after(failed: true) == .seconds(5))
    }
}
