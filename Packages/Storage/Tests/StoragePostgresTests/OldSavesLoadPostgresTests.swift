import Foundation
import PostgresNIO
import Serialization
import Storage
import StoragePostgres
import StoragePostgresTesting
import Testing

/// Records saved by older versions of an app load through ModelGen's generated chain on
/// PostgreSQL. `DiaryEntry` is ModelGen's real output for a three-version design
/// (Generated/, kept identical to ModelGen's output by ModelGen's `StoredDiaryModelTests`);
/// the old rows are written as raw bodies, as the old app's code stored them.
@Suite("RecordStore on PostgreSQL: old saves load through the generated migrations", .timeLimit(.minutes(5)))
struct OldSavesLoadPostgresTests {
    /// Writes `body` as the row of `id`, as an older app's backend wrote it.
    func writeRaw(_ body: String, id: Int, in backend: PostgresRecordBackend<DiaryEntry>) async throws {
        try await backend.client.query(
            "INSERT INTO diary (id, body) VALUES (\(RecordID.string(for: id)), \(Data(body.utf8)))")
    }

    /// The stored body of `id`, byte for byte.
    func rawBody(_ id: Int, in backend: PostgresRecordBackend<DiaryEntry>) async throws -> Data? {
        let rows = try await backend.client.query(
            "SELECT body FROM diary WHERE id = \(RecordID.string(for: id))")
        for try await body in rows.decode(Data.self) { return body }
        return nil
    }

    @Test("rows saved by v1 and v2 load as v3 (renamed, widened, defaulted, the hook's rounding) and save back as v3")
    func oldRowsLoad() async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<DiaryEntry>(url: server.url, table: "diary")
            let entries = RecordStore(backend: backend)
            try await writeRaw(
                ##"{"id":7,"text":"Low tide","color":"#ff0000","views":12,"rating":3.6,"model_version":1}"##, id: 7,
                in: backend)
            try await writeRaw(
                ##"{"id":8,"text":"High tide","hexColor":"#00ff00","views":70000,"rating":2,"pinned":true,"model_version":2}"##,
                id: 8, in: backend)
            let loaded = try await entries.fetchAll().sorted { $0.id < $1.id }
            #expect(
                loaded == [
                    DiaryEntry(
                        id: 7, text: "Low tide", hexColor: "#ff0000", views: 12, rating: 4, pinned: false, mood: "calm"),
                    DiaryEntry(
                        id: 8, text: "High tide", hexColor: "#00ff00", views: 70000, rating: 2, pinned: true,
                        mood: "calm"),
                ])
            #expect(try await entries.fetch(id: 7)?.rating == 4)
            for entry in loaded { try await entries.save(entry) }
            for id in [7, 8] {
                let body = try #require(try await rawBody(id, in: backend))
                let tree = try Serializer(.json).tree(from: body)
                #expect(tree["model_version"] == .int(3), "row \(id) saved back as \(tree)")
                #expect(tree["color"] == nil && tree["mood"] == .string("calm"))
            }
            // A second look reads the saved v3 rows as they are.
            #expect(try await entries.fetchAll().sorted { $0.id < $1.id } == loaded)
            try await backend.shutdown()
        }
    }

    @Test("a row saved by a newer version is refused as newerVersion, not as damaged, and left as it was")
    func newerRowRefused() async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<DiaryEntry>(url: server.url, table: "diary")
            let entries = RecordStore(backend: backend)
            let newer =
                #"{"id":9,"text":"From the future","views":1,"rating":1,"pinned":false,"mood":"odd","model_version":4}"#
            try await writeRaw(newer, id: 9, in: backend)
            let byID = await #expect(throws: StorageError.self) { _ = try await entries.fetch(id: 9) }
            let all = await #expect(throws: StorageError.self) { _ = try await entries.fetchAll() }
            for error in [byID, all] {
                guard case .newerVersion(_, let underlying)? = error,
                    case .newerVersion(found: 4, current: 3, _)? = underlying as? SerializationError
                else {
                    Issue.record("expected a newer version, got \(String(describing: error))")
                    continue
                }
            }
            #expect(try await rawBody(9, in: backend) == Data(newer.utf8))
            try await backend.shutdown()
        }
    }

    @Test("a step that fails (the hook refuses a rating) is migrationFailed, names the step and changes no row")
    func failedStepChangesNothing() async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<DiaryEntry>(url: server.url, table: "diary")
            let entries = RecordStore(backend: backend)
            let huge = #"{"id":10,"text":"Too many stars","views":1,"rating":1e9,"model_version":1}"#
            try await writeRaw(huge, id: 10, in: backend)
            let error = await #expect(throws: StorageError.self) { _ = try await entries.fetch(id: 10) }
            guard case .migrationFailed(_, let failure)? = error else {
                Issue.record("expected migrationFailed, got \(String(describing: error))")
                return
            }
            guard case .migrationFailed(let step, let cause, _)? = failure as? SerializationError else {
                Issue.record("expected a failed step, got \(String(describing: error))")
                return
            }
            #expect(step == "1 → 2 of DiaryEntry")
            #expect(cause is RatingOutOfRange)
            #expect(try await rawBody(10, in: backend) == Data(huge.utf8))
            #expect(try await entries.count() == 1)
            try await backend.shutdown()
        }
    }
}
