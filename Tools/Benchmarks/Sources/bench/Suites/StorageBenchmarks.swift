import Foundation
import GRDB
import Storage
import StorageSQLite

/// Benchmarks of the Storage package against its peers (see the package's issue for the targets).
///
/// - `save-load-*`: `FileStore.save` + `load` against `JSONEncoder` + `Data.write(options: .atomic)`
///   + `Data(contentsOf:)` + `JSONDecoder`. The peer does not `fsync`, so the compared cases use
///   ``Durability/none`` (the same guarantee: atomic rename); `*-fsync` reports the default.
/// - `records-10k-*`: insert 10 000 records in one transaction, then fetch them all, into a fresh
///   collection each unit: the in-file backend and the SQLite backend against raw GRDB records.
enum StorageBenchmarks {
    /// A document whose encoded size is set by its number of lines.
    struct Document: Codable, Equatable {
        struct Line: Codable, Equatable {
            var text: String
            var number: Int
            var done: Bool
        }
        var title: String
        var version: Int
        var lines: [Line]

        init(approximateBytes: Int) {
            title = "Benchmark document"
            version = 3
            lines = (0..<max(1, approximateBytes / 50)).map {
                Line(text: "Line number \($0) of the document", number: $0, done: $0.isMultiple(of: 3))
            }
        }
    }

    /// A record for the collection benchmarks; also a GRDB record for the raw peer.
    struct Note: Codable, Identifiable, Sendable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "note"
        var id: Int
        var title: String
        var body: String
        var score: Double
        var pinned: Bool
    }

    static let notes: [Note] = (0..<10_000).map {
        Note(
            id: $0, title: "Note \($0)", body: "Body of note number \($0), with some text.", score: Double($0) / 7,
            pinned: $0 % 5 == 0)
    }

    static func cases() async throws -> [BenchmarkCase] {
        let folder = try ScratchFolders.make("storage-bench")
        let fast = try FileStore(directory: folder.appendingPathComponent("fast"), durability: .none)
        let durable = try FileStore(directory: folder.appendingPathComponent("durable"))
        var cases: [BenchmarkCase] = []
        for (label, bytes) in [("1kb", 1_000), ("100kb", 100_000), ("10mb", 10_000_000)] {
            let document = Document(approximateBytes: bytes)
            let peerURL = folder.appendingPathComponent("peer-\(label).json")
            cases.append(
                BenchmarkCase(
                    suite: "storage", name: "save-load-\(label)", peer: "Data.write(.atomic)+JSONEncoder", target: 0.9,
                    ours: {
                        try fast.save(document, as: "\(label).json")
                        guard try fast.load(Document.self, from: "\(label).json") == document else { throw Mismatch() }
                    },
                    theirs: {
                        try JSONEncoder().encode(document).write(to: peerURL, options: .atomic)
                        let back = try JSONDecoder().decode(Document.self, from: Data(contentsOf: peerURL))
                        guard back == document else { throw Mismatch() }
                    },
                    metrics: { ["bytes": Double(try fast.data(at: "\(label).json").count)] }))
            cases.append(
                BenchmarkCase(
                    suite: "storage", name: "save-load-\(label)-fsync",
                    ours: {
                        try durable.save(document, as: "\(label).json")
                        guard try durable.load(Document.self, from: "\(label).json") == document else {
                            throw Mismatch()
                        }
                    }))
        }

        let records = folder.appendingPathComponent("records")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        let recordStore = try FileStore(directory: records)
        /// A fresh database path per unit.
        let fresh = { records.appendingPathComponent("\(UUID().uuidString).sqlite") }
        let rawGRDB: () async throws -> Void = {
            let url = fresh()
            defer { removeDatabase(url) }
            let queue = try DatabaseQueue(path: url.path)
            try await queue.write { db in
                try db.create(table: "note") { table in
                    table.primaryKey("id", .integer)
                    table.column("title", .text).notNull()
                    table.column("body", .text).notNull()
                    table.column("score", .double).notNull()
                    table.column("pinned", .boolean).notNull()
                }
                for note in notes { try note.insert(db) }
            }
            let all = try await queue.read { db in try Note.fetchAll(db) }
            guard all.count == notes.count else { throw Mismatch() }
        }
        cases.append(
            BenchmarkCase(
                suite: "storage", name: "records-10k-sqlite", peer: "raw GRDB", target: 0.8,
                ours: {
                    let url = fresh()
                    defer { removeDatabase(url) }
                    let store = try RecordStore<Note>(sqlite: url, table: "note")
                    try await store.write { batch in for note in notes { batch.insert(note) } }
                    guard try await store.fetchAll().count == notes.count else { throw Mismatch() }
                },
                theirs: rawGRDB))
        cases.append(
            BenchmarkCase(
                suite: "storage", name: "records-10k-file", peer: "raw GRDB",
                ours: {
                    let key = "\(UUID().uuidString).json"
                    defer { try? recordStore.remove(key) }
                    let store = try RecordStore<Note>(file: key, in: recordStore)
                    try await store.write { batch in for note in notes { batch.insert(note) } }
                    // A second store on the file reads it back, as the next launch would.
                    guard try await RecordStore<Note>(file: key, in: recordStore).fetchAll().count == notes.count else {
                        throw Mismatch()
                    }
                },
                theirs: rawGRDB))
        return cases
    }

    static func removeDatabase(_ url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    struct Mismatch: Error {}
}
