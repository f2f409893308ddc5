import Foundation
import Storage
import Testing

@testable import BoilerplateSync

/// Client wins, merge and a custom decision: each decides, sends what it decided, and reports.
@Suite struct ConflictPolicyTests {
    /// Both devices start from `base`; `a` edits and syncs, then `b` (with `policy`) edits and syncs.
    private func race(
        _ server: TestServer, _ folder: URL, policy: SyncConflictPolicy<Note>,
        bEdit: (SyncedRecordStore<Note>) async throws -> Void,
        aDeletes: Bool = false
    ) async throws -> (a: Device, b: Device) {
        let a = try Device.open("a", in: folder, server: server)
        let b = try Device.open("b", in: folder, server: server, policy: policy)
        try await a.store.insert(Note(id: "n", text: "base"))
        try await a.engine.sync()
        try await b.engine.sync()
        if aDeletes {
            try await a.store.delete(id: "n")
        } else {
            try await a.store.update(Note(id: "n", text: "from a"))
        }
        try await bEdit(b.store)
        try await a.engine.sync()
        try await b.engine.sync()
        try await a.engine.sync()
        return (a, b)
    }

    @Test(arguments: ServerDatabase.allCases)
    func clientWinsSendsTheLocalRecordOnTheServersRevision(_ database: ServerDatabase) async throws {
        try await withServer(database) { server in
            try await withFolder { folder in
                let (a, b) = try await race(server, folder, policy: .clientWins) {
                    try await $0.update(Note(id: "n", text: "from b"))
                }
                let final = Note(id: "n", text: "from b", revision: 2)
                #expect(try await server.notes() == ["n": final])
                #expect(try await a.notes() == ["n": final])
                // b's copy already had this content: its local revision (its edit's) stays.
                #expect(try await b.notes() == ["n": Note(id: "n", text: "from b", revision: 1)])
                let conflict = try #require(try await b.store.conflicts().first)
                #expect(conflict.kind == .staleRevision)
                #expect(conflict.decision == .keptLocal)
                #expect(conflict.server?.text == "from a")
                #expect(conflict.local?.text == "from b")
            }
        }
    }

    @Test(arguments: ServerDatabase.allCases)
    func clientWinsRecreatesARecordTheServerDeleted(_ database: ServerDatabase) async throws {
        try await withServer(database) { server in
            try await withFolder { folder in
                let (a, b) = try await race(
                    server, folder, policy: .clientWins,
                    bEdit: {
                        try await $0.update(Note(id: "n", text: "kept"))
                    }, aDeletes: true)
                let final = Note(id: "n", text: "kept", revision: 0)
                #expect(try await server.notes() == ["n": final])
                #expect(try await a.notes() == ["n": final])
                // b's copy already had this content: its local revision (its edit's) stays.
                #expect(try await b.notes() == ["n": Note(id: "n", text: "kept", revision: 1)])
                #expect(try await b.store.conflicts().map(\.kind) == [.recordMissing])
            }
        }
    }

    @Test func clientWinsAPulledConflictAndSendsItInTheSameRound() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let b = try Device.open("b", in: folder, server: server, policy: .clientWins)
                try await a.store.insert(Note(id: "n", text: "base"))
                try await a.engine.sync()
                try await b.engine.sync()
                try await a.store.update(Note(id: "n", text: "from a"))
                try await a.engine.sync()
                // b's edit is not pushed before the pull meets a's: the pull decides it.
                try await b.store.update(Note(id: "n", text: "from b"))
                try await b.engine.pull()
                #expect(try await b.notes()["n"]?.text == "from b")
                let pending = try await b.store.pendingChanges()
                #expect(pending.count == 1)
                #expect(try await b.store.conflicts().map(\.decision) == [.keptLocal])
                try await b.engine.sync()
                let final = Note(id: "n", text: "from b", revision: 2)
                #expect(try await server.notes() == ["n": final])
                // b's copy already had this content: its local revision (its edit's) stays.
                #expect(try await b.notes() == ["n": Note(id: "n", text: "from b", revision: 1)])
            }
        }
    }

    @Test func mergeStoresAndSendsTheMergedRecord() async throws {
        let policy = SyncConflictPolicy<Note>.merge { local, server in
            var merged = server
            merged.text = server.text + " + " + local.text
            return merged
        }
        try await withServer { server in
            try await withFolder { folder in
                let (a, b) = try await race(server, folder, policy: policy) {
                    try await $0.update(Note(id: "n", text: "from b"))
                }
                let final = Note(id: "n", text: "from a + from b", revision: 2)
                #expect(try await server.notes() == ["n": final])
                #expect(try await a.notes() == ["n": final])
                #expect(try await b.notes() == ["n": final])
                let conflict = try #require(try await b.store.conflicts().first)
                #expect(conflict.decision == .merged(Note(id: "n", text: "from a + from b", revision: 1)))
            }
        }
    }

    @Test func mergeLetsADeletionWin() async throws {
        let policy = SyncConflictPolicy<Note>.merge { local, _ in local }
        try await withServer { server in
            try await withFolder { folder in
                let (_, b) = try await race(
                    server, folder, policy: policy,
                    bEdit: {
                        try await $0.update(Note(id: "n", text: "edited"))
                    }, aDeletes: true)
                #expect(try await server.notes().isEmpty)
                #expect(try await b.notes().isEmpty)
                #expect(try await b.store.conflicts().map(\.decision) == [.keptServer])
            }
        }
    }

    @Test func aCustomPolicySeesBothSides() async throws {
        let seen = Seen()
        let policy = SyncConflictPolicy<Note>.custom { input in
            seen.record(input)
            return input.local.map { .merged(Note(id: $0.id, text: $0.text.uppercased())) } ?? .keptServer
        }
        try await withServer { server in
            try await withFolder { folder in
                let (_, b) = try await race(server, folder, policy: policy) {
                    try await $0.update(Note(id: "n", text: "quiet"))
                }
                #expect(try await server.notes()["n"]?.text == "QUIET")
                #expect(try await b.notes()["n"]?.text == "QUIET")
                let input = try #require(seen.inputs.first)
                #expect(input.kind == .staleRevision)
                #expect(input.server?.text == "from a")
                #expect(input.serverRevision == 1)
                #expect(input.local?.text == "quiet")
            }
        }
    }
}

/// What a custom policy was asked.
private final class Seen: @unchecked Sendable {
    // @unchecked: `stored` is only touched while holding `lock`.
    private let lock = NSLock()
    private var stored: [SyncConflictInput<Note>] = []

    func record(_ input: SyncConflictInput<Note>) { lock.withLock { stored.append(input) } }
    var inputs: [SyncConflictInput<Note>] { lock.withLock { stored } }
}
