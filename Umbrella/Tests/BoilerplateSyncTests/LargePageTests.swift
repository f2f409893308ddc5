import Foundation
import Networking
import Storage
import Testing

@testable import BoilerplateSync

/// A page over the client's byte limit made of legitimate records is asked for again with fewer
/// entries, down to one; only a single entry over the limit is refused.
@Suite struct LargePageTests {
    private func device(_ server: TestServer, in folder: URL, maximumPageBytes: Int) throws -> Device {
        let store = try SyncedRecordStore<Note>(url: folder.appendingPathComponent("big.sqlite"), table: "notes")
        let client = HTTPClient(baseURL: server.baseURL)
        let engine = SyncEngine(
            store: store, client: client, path: "notes",
            configuration: SyncEngineConfiguration(
                pageSize: 8, interval: .seconds(3600), retry: Device.quickRetry, maximumPageBytes: maximumPageBytes))
        return Device(store: store, engine: engine, client: client)
    }

    @Test func aPageOverTheByteLimitIsAskedForInSmallerPages() async throws {
        try await withServer { server in
            try await withFolder { folder in
                // Eight records of ~1 KB: a page of 8 is ~9 KB, of 2 ~2.3 KB.
                for index in 0..<8 {
                    try await server.store.insert(Note(id: "r\(index)", text: String(repeating: "x", count: 1000)))
                }
                let big = try device(server, in: folder, maximumPageBytes: 3000)
                try await big.engine.sync()
                #expect(try await big.notes().count == 8)
                #expect(big.engine.state.lastError == nil)
            }
        }
    }

    @Test func aPageOverTheClientsResponseLimitIsAskedForInSmallerPagesToo() async throws {
        try await withServer { server in
            try await withFolder { folder in
                for index in 0..<8 {
                    try await server.store.insert(Note(id: "r\(index)", text: String(repeating: "x", count: 1000)))
                }
                // The page limit is generous; the HTTP client's own limit is what a page crosses.
                let big = try device(server, in: folder, maximumPageBytes: 1024 * 1024)
                big.client.maxResponseSize = 3000
                try await big.engine.sync()
                #expect(try await big.notes().count == 8)
                big.client.maxResponseSize = 500
                try await server.store.update(Note(id: "r0", text: String(repeating: "y", count: 1000)))
                await #expect {
                    try await big.engine.sync()
                } throws: { error in
                    if case .corruptPage = error as? SyncError { true } else { false }
                }
            }
        }
    }

    @Test func aSingleEntryOverTheByteLimitIsACorruptPageNamingIt() async throws {
        try await withServer { server in
            try await withFolder { folder in
                try await server.store.insert(Note(id: "small", text: "s"))
                try await server.store.insert(Note(id: "huge", text: String(repeating: "x", count: 5000)))
                let big = try device(server, in: folder, maximumPageBytes: 3000)
                await #expect {
                    try await big.engine.sync()
                } throws: { error in
                    if case .corruptPage(let problem, _) = error as? SyncError {
                        problem.contains("one entry")
                    } else {
                        false
                    }
                }
                // What came before it was applied.
                #expect(try await big.notes().keys.sorted() == ["small"])
            }
        }
    }
}
