import Foundation
import Storage
import StoragePostgres
import StoragePostgresTesting
import Testing

/// A test server is a real PostgreSQL the body can use, private to the test (its own port and
/// folder), and gone afterwards whether the body returned or threw.
@Suite("PostgresTestServer: start, use, stop", .serialized)
struct PostgresTestServerLifecycleTests {
    struct Note: Codable, Identifiable, Sendable, Equatable {
        var id: Int
        var text: String
    }

    struct Planned: Error {}

    @Test("the body gets a server on 127.0.0.1 that stores records; afterwards its folder is gone")
    func serves() async throws {
        var folder: URL?
        try await PostgresTestServer.with { server in
            folder = server.folder
            #expect(server.url.host == "127.0.0.1" && server.url.port == server.port)
            let backend = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
            let notes = RecordStore(backend: backend)
            try await notes.insert(Note(id: 1, text: "Milk"))
            #expect(try await notes.fetch(id: 1) == Note(id: 1, text: "Milk"))
            try await backend.shutdown()
            #expect(FileManager.default.fileExists(atPath: server.folder.path))
        }
        if let folder { #expect(!FileManager.default.fileExists(atPath: folder.path)) }
    }

    @Test("a body that throws still stops the server, and the error reaches the caller")
    func throwingBody() async throws {
        guard PostgresTestServer.unavailableReason == nil else { return }
        var seen: PostgresTestServer?
        await #expect(throws: Planned.self) {
            try await PostgresTestServer.with { server in
                seen = server
                throw Planned()
            }
        }
        let server = try #require(seen)
        #expect(!FileManager.default.fileExists(atPath: server.folder.path))
        // Nothing listens on its port any more: a new connection is refused.
        await #expect(throws: (any Error).self) {
            let backend = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
            try await backend.shutdown()
        }
    }

    @Test("two servers run side by side on their own ports and folders; stop twice is harmless")
    func sideBySide() async throws {
        guard PostgresTestServer.unavailableReason == nil else { return }
        let first = try await PostgresTestServer.start()
        let second = try await PostgresTestServer.start()
        #expect(first.port != second.port && first.folder != second.folder)
        let one = try await PostgresRecordBackend<Note>(url: first.url, table: "notes")
        let two = try await PostgresRecordBackend<Note>(url: second.url, table: "notes")
        try await RecordStore(backend: one).insert(Note(id: 1, text: "only in the first"))
        #expect(try await RecordStore(backend: two).count() == 0)
        try await one.shutdown()
        try await two.shutdown()
        await first.stop()
        await first.stop()
        await second.stop()
        #expect(!FileManager.default.fileExists(atPath: first.folder.path))
        #expect(!FileManager.default.fileExists(atPath: second.folder.path))
    }

    @Test("the unavailable error says what is missing and how to install it")
    func unavailableMessage() {
        let error = PostgresTestServerError.unavailable(reason: "no initdb")
        #expect(error.description == "PostgreSQL is unavailable: no initdb")
        if let reason = PostgresTestServer.unavailableReason {
            #expect(reason.contains("apt-get install postgresql"))
        }
    }
}
