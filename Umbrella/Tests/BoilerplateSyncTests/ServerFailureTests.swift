import BoilerplateSync
import Foundation
import Networking
import Storage
import Testing

/// Throttling and failing servers: retried by the policy, and when that gives up, a typed error
/// with the outbox kept.
@Suite struct ServerFailureTests {
    @Test func tooManyRequestsIsRetriedAfterRetryAfter() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: "x"))
                server.switches.throttle = 2
                try await a.engine.sync()
                #expect(server.switches.throttle == 0)
                #expect(try await server.notes()["n"]?.text == "x")
                #expect(a.engine.state.pendingCount == 0)
            }
        }
    }

    @Test func aFailingServerKeepsTheOutbox() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: "x"))
                server.switches.failing = true
                await #expect(throws: SyncError.server(status: 500, reason: nil, request: "POST notes")) {
                    try await a.engine.sync()
                }
                // The quick policy's three attempts, no more.
                #expect(server.switches.requests == 3)
                #expect(a.engine.state.lastError == .server(status: 500, reason: nil, request: "POST notes"))
                #expect(a.engine.state.pause == nil)
                #expect(try await a.store.pendingCount() == 1)
                server.switches.failing = false
                try await a.engine.sync()
                #expect(try await server.notes()["n"]?.text == "x")
                #expect(a.engine.state.lastError == nil)
            }
        }
    }
}
