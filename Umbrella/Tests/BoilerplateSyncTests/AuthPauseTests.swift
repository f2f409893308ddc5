import Foundation
import Networking
import Storage
import Testing

@testable import BoilerplateSync

/// 401 and 403 pause sync with the outbox kept; new credentials and a resume continue.
@Suite struct AuthPauseTests {
    @Test func unauthorizedPausesAndNewCredentialsContinue() async throws {
        try await withServer { server in
            try await withFolder { folder in
                server.switches.requiredToken = "good"
                let a = try Device.open("a", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: "waiting"))
                await #expect(throws: SyncError.unauthorized(status: 401, request: "POST notes")) {
                    try await a.engine.sync()
                }
                #expect(a.engine.state.pause == .unauthorized(status: 401))
                #expect(a.engine.state.pendingCount == 1)
                #expect(try await a.store.pendingCount() == 1)
                #expect(try await server.notes().isEmpty)
                // A paused engine's loop does not sync, however often it is woken: wait until it has
                // seen the write's wake-up (its second pass), then check nothing was sent.
                let requests = server.switches.requests
                let loop = Task { await a.engine.run() }
                try await a.store.insert(Note(id: "m", text: "also waiting"))
                try await waitUntil { a.engine.loopPasses >= 2 }
                #expect(server.switches.requests == requests)
                #expect(try await server.notes().isEmpty)
                loop.cancel()
                await loop.value

                a.client.auth = .bearer("good")
                try await a.engine.sync()
                #expect(a.engine.state.pause == nil)
                #expect(a.engine.state.lastError == nil)
                #expect(try await server.notes().keys.sorted() == ["m", "n"])
                #expect(try await a.store.pendingCount() == 0)
            }
        }
    }

    /// The refresh token was revoked: the token provider fails after the 401, and that is a 401
    /// too (pause, outbox kept), not an unreachable server to be retried at every write.
    @Test func aFailedTokenRefreshPauses() async throws {
        struct Revoked: Error {}
        try await withServer { server in
            try await withFolder { folder in
                server.switches.requiredToken = "good"
                let a = try Device.open("a", in: folder, server: server)
                a.client.auth = .refresher(initialToken: "expired") { throw Revoked() }
                try await a.store.insert(Note(id: "n", text: "waiting"))
                await #expect(throws: SyncError.unauthorized(status: 401, request: "POST notes")) {
                    try await a.engine.sync()
                }
                #expect(a.engine.state.pause == .unauthorized(status: 401))
                #expect(try await a.store.pendingCount() == 1)
                a.client.auth = .bearer("good")
                try await a.engine.sync()
                #expect(try await server.notes().keys.sorted() == ["n"])
            }
        }
    }

    @Test func forbiddenPausesTheLoopUntilResumed() async throws {
        try await withServer { server in
            try await withFolder { folder in
                server.switches.forbid = true
                let a = try Device.open("a", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: "waiting"))
                a.engine.start()
                defer { a.engine.stop() }
                try await waitUntil { a.engine.state.pause == .unauthorized(status: 403) }
                #expect(try await a.store.pendingCount() == 1)
                server.switches.forbid = false
                a.engine.resume()
                try await waitUntil { a.engine.state.pendingCount == 0 && a.engine.state.pause == nil }
                #expect(try await server.notes()["n"]?.text == "waiting")
            }
        }
    }
}

/// Polls `condition` until it holds, failing after 30 s (the suite runs beside others on two cores).
func waitUntil(_ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the condition did not hold within 30 s")
            return
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}
