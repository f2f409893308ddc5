import BoilerplateSync
import Foundation
import Observation
import Storage
import Testing

/// `SyncEngine.state` is Observable: a view reading it is told when a write or a round changes it.
@Suite struct ObservableStateTests {
    @Test func localWritesAndRoundsSignalObservers() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                try await a.engine.refresh()
                let changed = Flag()
                withObservationTracking {
                    _ = a.engine.state.pendingCount
                } onChange: {
                    changed.set()
                }
                try await a.store.insert(Note(id: "n", text: "x"))
                #expect(changed.isSet)
                #expect(a.engine.state.pendingCount == 1)

                let synced = Flag()
                withObservationTracking {
                    _ = a.engine.state.lastSyncedAt
                } onChange: {
                    synced.set()
                }
                try await a.engine.sync()
                #expect(synced.isSet)
                #expect(a.engine.state.pendingCount == 0)
                #expect(a.engine.state.isSyncing == false)
            }
        }
    }

    @Test func aRestartedEngineShowsTheOutboxItFinds() async throws {
        try await withServer { server in
            try await withFolder { folder in
                do {
                    let first = try Device.open("a", in: folder, server: server)
                    try await first.store.insert(Note(id: "n", text: "x"))
                    try await first.store.insert(Note(id: "m", text: "y"))
                }
                let restarted = try Device.open("a", in: folder, server: server)
                try await waitUntil { restarted.engine.state.pendingCount == 2 }
            }
        }
    }
}

/// A flag set from an observation's change handler.
final class Flag: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
