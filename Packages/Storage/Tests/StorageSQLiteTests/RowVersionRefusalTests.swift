import Foundation
import Serialization
import Storage
import StorageSQLite
import Testing

/// A row the app cannot read because of its model version is reported as what it is, never as
/// damaged: an app that answers "damaged" by starting fresh would lose the data.
@Suite("RecordStore on SQLite: rows of another model version")
struct RowVersionRefusalTests {
    /// A note as version 1 of the app stores it.
    struct NoteV1: Codable, Identifiable, Equatable, Sendable, Versioned {
        static let version = 1
        var id: Int
        var title: String
    }

    /// The same note as a newer app, at version 4, stores it.
    struct NoteV4: Codable, Identifiable, Equatable, Sendable, Versioned {
        static let version = 4
        var id: Int
        var title: String
    }

    struct StepRefused: Error {}

    /// Version 2, whose step from 1 refuses an empty title.
    struct NoteV2: Codable, Identifiable, Equatable, Sendable, Versioned {
        static let version = 2
        static let migrations = [
            Migration(from: 1) { tree in
                guard tree["title"]?.stringValue?.isEmpty == false else { throw StepRefused() }
            }
        ]
        var id: Int
        var title: String
    }

    /// A shape no note row has: `title` is a number.
    struct Mismatched: Codable, Identifiable, Equatable, Sendable {
        var id: Int
        var title: Int
    }

    /// The two ways a row is read: by id, and as one of all rows.
    static func reads<Record: Codable & Identifiable & Sendable>(
        of store: RecordStore<Record>
    ) -> [@Sendable () async throws -> Void] where Record.ID == Int {
        [{ _ = try await store.fetch(id: 1) }, { _ = try await store.fetchAll() }]
    }

    @Test("a row saved by a newer version is newerVersion, by fetch(id:) and fetchAll, and stays as it was")
    func newerRow() async throws {
        let database = try TemporaryDatabase()
        try await RecordStore<NoteV4>(sqlite: database.url, table: "notes").save(NoteV4(id: 1, title: "From v4"))
        let notes = try RecordStore<NoteV1>(sqlite: database.url, table: "notes")
        for fetch in Self.reads(of: notes) {
            let error = await #expect(throws: StorageError.self) { try await fetch() }
            guard case .newerVersion(_, let underlying)? = error else {
                Issue.record("expected newerVersion, got \(String(describing: error))")
                continue
            }
            guard case .newerVersion(found: 4, current: 1, _)? = underlying as? SerializationError else {
                Issue.record("expected the versions found and supported, got \(underlying)")
                continue
            }
            #expect(error?.message.contains("newer version of the app") == true)
        }
        #expect(
            try await RecordStore<NoteV4>(sqlite: database.url, table: "notes").fetchAll() == [
                NoteV4(id: 1, title: "From v4")
            ])
    }

    @Test("a row a migration step refuses is migrationFailed, naming the step")
    func refusedStep() async throws {
        let database = try TemporaryDatabase()
        try await RecordStore<NoteV1>(sqlite: database.url, table: "notes").save(NoteV1(id: 1, title: ""))
        let notes = try RecordStore<NoteV2>(sqlite: database.url, table: "notes")
        for fetch in Self.reads(of: notes) {
            let error = await #expect(throws: StorageError.self) { try await fetch() }
            guard case .migrationFailed(_, let underlying)? = error else {
                Issue.record("expected migrationFailed, got \(String(describing: error))")
                continue
            }
            #expect("\(underlying)".contains("1 → 2 of NoteV2"))
        }
        #expect(
            try await RecordStore<NoteV1>(sqlite: database.url, table: "notes").fetchAll() == [
                NoteV1(id: 1, title: "")
            ])
    }

    @Test("a row that does not decode is still corrupt")
    func undecodableRow() async throws {
        let database = try TemporaryDatabase()
        try await RecordStore<NoteV1>(sqlite: database.url, table: "notes").save(NoteV1(id: 1, title: "Words"))
        let notes = try RecordStore<Mismatched>(sqlite: database.url, table: "notes")
        for fetch in Self.reads(of: notes) {
            let error = await #expect(throws: StorageError.self) { try await fetch() }
            guard case .corrupt(_, nil, _)? = error else {
                Issue.record("expected corrupt, got \(String(describing: error))")
                continue
            }
        }
    }
}
