import Foundation
import Storage
import StoragePostgres
import StoragePostgresTesting
import Testing

/// An open that runs out of time is a typed error, returns, and leaves nothing behind. The timeout
/// fires at any point of the opening: before the first connection, during the migration's
/// transaction, or after it. Once it waited forever: the pool was stopped under a query in flight,
/// and the open waited for that query.
@Suite("PostgreSQL: an open that runs out of time", .timeLimit(.minutes(3)))
struct OpenTimeoutTests {
    @Test("is StorageError.database with noAnswer, returns, and a later open works")
    func timesOut() async throws {
        try await PostgresTestServer.with { server in
            var timedOut = 0
            for step in 0..<40 {
                // Microseconds apart, so the timeout lands at every point of an opening.
                let limit = Duration.microseconds(250 * step)
                do {
                    let backend = try await PostgresRecordBackend<Note>(
                        url: server.url, table: "notes", openTimeout: limit)
                    try await backend.shutdown()
                } catch let StorageError.database(_, underlying) {
                    #expect(
                        (underlying as? PostgresRecordError) == .noAnswer(after: limit),
                        "after \(limit): \(underlying)")
                    timedOut += 1
                }
            }
            #expect(timedOut > 0)
            // The server is not left holding a half-made table or a lock.
            let backend = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
            let notes = RecordStore(backend: backend)
            try await notes.insert(Note(id: 1, text: "after", stars: 1))
            #expect(try await notes.count() == 1)
            try await backend.shutdown()
        }
    }
}
