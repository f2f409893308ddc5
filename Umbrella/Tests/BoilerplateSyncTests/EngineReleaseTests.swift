import Foundation
import Networking
import Storage
import Testing

@testable import BoilerplateSync

/// A started engine does not keep itself alive: released, its loop ends and its report streams
/// finish.
@Suite struct EngineReleaseTests {
    @Test func aStartedEngineIsReleasedAndItsStreamsEnd() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let store = try SyncedRecordStore<Note>(url: folder.appendingPathComponent("a.sqlite"), table: "notes")
                var engine: SyncEngine<Note>? = SyncEngine(
                    store: store, client: HTTPClient(baseURL: server.baseURL), path: "notes",
                    configuration: SyncEngineConfiguration(interval: .seconds(3600), retry: Device.quickRetry))
                let conflicts = try #require(engine).conflictReports()
                let refusals = try #require(engine).refusalReports()
                try #require(engine).start()
                try await waitUntil { engine?.state.lastSyncedAt != nil }
                weak let released = engine
                engine = nil
                try await waitUntil { released == nil }
                // Not released: stop here (the streams below would never end).
                try #require(released == nil)
                var conflictIterator = conflicts.makeAsyncIterator()
                #expect(await conflictIterator.next() == nil)
                var refusalIterator = refusals.makeAsyncIterator()
                #expect(await refusalIterator.next() == nil)
                // The loop ended with it: a write is not synced by anything.
                let requests = server.switches.requests
                try await store.insert(Note(id: "n", text: "after"))
                #expect(server.switches.requests == requests)
            }
        }
    }
}
