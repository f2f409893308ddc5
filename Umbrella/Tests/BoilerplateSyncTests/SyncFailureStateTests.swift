import Foundation
import GRDB
import Storage
import Testing

@testable import BoilerplateSync

/// Every failed round leaves its error in `state.lastError`, whatever failed; a cancelled round
/// is a `CancellationError`, not a failure.
@Suite struct SyncFailureStateTests {
    @Test func aLocalDatabaseFailureIsTheLastError() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let b = try Device.open("b", in: folder, server: server)
                try await b.store.insert(Note(id: "n", text: "one"))
                try await b.engine.sync()
                try await a.engine.sync()
                // a's copy of n no longer decodes: applying b's next change to it fails.
                try await a.store.backend.database.write { db in
                    try db.execute(sql: "UPDATE notes SET body = ? WHERE id = 'n'", arguments: [Data("{}".utf8)])
                }
                try await b.store.update(Note(id: "n", text: "two"))
                try await b.engine.sync()
                var thrown: (any Error)?
                do { try await a.engine.sync() } catch { thrown = error }
                let failure = try #require(thrown as? SyncError)
                guard case .database = failure else {
                    Issue.record("expected .database, got \(failure)")
                    return
                }
                #expect(a.engine.state.lastError == failure)
                #expect(a.engine.state.isSyncing == false)
            }
        }
    }

    @Test func aCancelledSyncIsACancellationError() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: "one"))
                let round = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    try await a.engine.sync()
                }
                await #expect(throws: CancellationError.self) { try await round.value }
                #expect(a.engine.state.lastError == nil)
                #expect(a.engine.state.isSyncing == false)
                // Nothing was lost: the next round sends the change.
                try await a.engine.sync()
                #expect(try await server.notes().keys.sorted() == ["n"])
            }
        }
    }
}
