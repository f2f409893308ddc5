import Foundation
import Storage
import Testing

@testable import BoilerplateSync

/// When sync changes a record's content, its local revision moves past every copy read before:
/// a copy an editor still holds is refused locally (`staleRevision`) instead of being saved and
/// pushed over the server's record without a conflict.
@Suite struct StaleCopyAfterSyncTests {
    /// Both devices hold `n`; `a`'s edit reaches the server first, then `b` edits and syncs under
    /// `policy`. Returns the devices and `b`'s copy of its edit as the editor still holds it.
    private func conflict(
        _ server: TestServer, in folder: URL, policy: SyncConflictPolicy<Note>, pullFirst: Bool
    ) async throws -> (a: Device, b: Device, stale: Note) {
        let a = try Device.open("a", in: folder, server: server)
        let b = try Device.open("b", in: folder, server: server, policy: policy)
        try await a.store.insert(Note(id: "n", text: "base"))
        try await a.engine.sync()
        try await b.engine.sync()
        try await a.store.update(Note(id: "n", text: "from a"))
        try await a.engine.sync()
        try await b.store.update(Note(id: "n", text: "from b"))
        // The editor's copy: what `b` read after its own save.
        let stale = try #require(try await b.store.records.fetch(id: "n"))
        #expect(stale.revision == 1)
        if pullFirst { try await b.engine.pull() } else { try await b.engine.sync() }
        return (a, b, stale)
    }

    private func expectRefused(_ stale: Note, on b: Device) async throws {
        await #expect {
            try await b.store.update(Note(id: "n", text: "old editor copy", revision: stale.revision))
        } throws: { error in
            if case .staleRevision(id: "n", expected: 1, stored: _, in: _) = error as? RecordStoreError {
                true
            } else {
                false
            }
        }
    }

    @Test func theLosingDevicesOldCopyIsRefusedAfterServerWinsOnPush() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let (_, b, stale) = try await conflict(server, in: folder, policy: .serverWins, pullFirst: false)
                #expect(try await b.notes()["n"]?.text == "from a")
                try await expectRefused(stale, on: b)
                try await b.engine.sync()
                #expect(try await server.notes()["n"]?.text == "from a")
                #expect(try await b.store.pendingCount() == 0)
            }
        }
    }

    @Test func theLosingDevicesOldCopyIsRefusedAfterServerWinsOnPull() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let (_, b, stale) = try await conflict(server, in: folder, policy: .serverWins, pullFirst: true)
                #expect(try await b.notes()["n"]?.text == "from a")
                try await expectRefused(stale, on: b)
                try await b.engine.sync()
                #expect(try await server.notes()["n"]?.text == "from a")
            }
        }
    }

    @Test func anOldCopyIsRefusedAfterAMerge() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let merge = SyncConflictPolicy<Note>.merge { local, server in
                    var merged = server
                    merged.text = server.text + "+" + local.text
                    return merged
                }
                // Decided by the pull, so the merge is stored and queued but not yet sent.
                let (a, b, stale) = try await conflict(server, in: folder, policy: merge, pullFirst: true)
                try await expectRefused(stale, on: b)
                try await b.engine.sync()
                try await a.engine.sync()
                #expect(try await server.notes()["n"]?.text == "from a+from b")
                #expect(try await a.notes()["n"]?.text == "from a+from b")
                #expect(try await b.notes()["n"]?.text == "from a+from b")
            }
        }
    }

    @Test func aSavedCopyAfterAnUnchangedAcknowledgementStillSaves() async throws {
        // The other side of the rule: an acknowledgement that leaves the content as it was keeps
        // the revision, so the copy the app just saved is still current.
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: "one"))
                try await a.engine.sync()
                let copy = try #require(try await a.store.records.fetch(id: "n"))
                #expect(copy.revision == 0)
                try await a.store.update(Note(id: "n", text: "two", revision: copy.revision))
                try await a.engine.sync()
                #expect(try await server.notes()["n"] == Note(id: "n", text: "two", revision: 1))
                #expect(try await a.notes()["n"] == Note(id: "n", text: "two", revision: 1))
            }
        }
    }
}
