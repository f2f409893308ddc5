import BoilerplateSync
import Foundation
import Serialization
import Storage
import StorageSQLite
import StorageSyncServer
import Testing

/// The server's model, one version ahead of the app's `Note`: `text` became `title`.
struct NoteV2: Codable, Identifiable, Sendable, Equatable, RevisionedRecord, Versioned {
    var id: String
    var title: String
    var revision = 0

    static let version = 2
    static let migrations = [Migration(from: 1) { try $0.rename("text", to: "title") }]
}

/// A record of a newer model version than the app knows is not applied: sync pauses as "app too
/// old", the cursor stays, and the updated app continues from it.
@Suite struct AppTooOldTests {
    @Test func aServerOnANewerModelPausesTheOldAppAndTheUpdatedAppContinues() async throws {
        try await withFolder { serverFolder in
            let newer = try RecordStore<NoteV2>(
                sqlite: serverFolder.appendingPathComponent("v2.sqlite"), table: "notes", changeFeed: true)
            let routes = try await SyncRoutes(store: newer, path: "notes2")
            try await newer.insert(NoteV2(id: "n", title: "from the future"))
            try await withServer(extra: { routes.add(to: $0) }) { server in
                try await withFolder { folder in
                    let old = try Device.open("a", in: folder, server: server, path: "notes2")
                    await #expect(throws: SyncError.appTooOld(found: 2, supported: 1, request: "GET notes2/changes")) {
                        try await old.engine.sync()
                    }
                    #expect(old.engine.state.pause == .appTooOld(found: 2, supported: 1))
                    #expect(try await old.store.cursor() == nil)
                    #expect(try await old.store.records.count() == 0)
                    // The loop does not sync while paused.
                    let loop = Task { await old.engine.run() }
                    try await Task.sleep(for: .milliseconds(200))
                    loop.cancel()
                    await loop.value
                    #expect(old.engine.state.pause == .appTooOld(found: 2, supported: 1))

                    // The app is updated: the same database, the new model.
                    let store = try SyncedRecordStore<NoteV2>(
                        url: folder.appendingPathComponent("a.sqlite"), table: "notes")
                    let engine = SyncEngine(store: store, client: old.client, path: "notes2")
                    try await engine.sync()
                    #expect(try await store.records.fetchAll() == [NoteV2(id: "n", title: "from the future")])
                }
            }
        }
    }

    @Test func aRecordFromANewerModelPausesSyncAsAppTooOld() async throws {
        let feed = ScriptedFeed()
        try await withServer(extra: { feed.add(to: $0, path: "hostile") }) { server in
            try await withFolder { folder in
                let device = try Device.open("a", in: folder, server: server, path: "hostile")
                feed.body = HostilePageTests.good
                try await device.engine.sync()
                feed.body = HostilePageTests.page(
                    #"{"id":"future","op":"saved","revision":0,"record":{"id":"future","title":"?","revision":0,"model_version":2}}"#
                )
                await #expect {
                    try await device.engine.sync()
                } throws: { error in
                    if case .appTooOld(let found, let supported, _) = error as? SyncError {
                        found == ModelVersion.int(2) && supported == ModelVersion.int(1)
                    } else {
                        false
                    }
                }
                #expect(device.engine.state.pause == .appTooOld(found: .int(2), supported: .int(1)))
                #expect(try await device.store.cursor() == "c1.aaaa.1")
                #expect(try await device.notes().keys.sorted() == ["k"])
                // Local writes still work and wait in the outbox.
                try await device.store.insert(Note(id: "local", text: "kept for later"))
                #expect(try await device.store.pendingCount() == 1)
            }
        }
    }
}
