import Foundation
import Storage
import StoragePostgres
import StoragePostgresTesting
import StorageSQLite
import Testing

/// The probe's records.
private struct FeedNote: Codable, Identifiable, Sendable {
    var id: Int
    var text: String
}

/// What a killed writer left: the table and its feed must agree.
private func checkConsistent(_ backend: any RecordBackend<FeedNote>) async throws {
    let records = Set(try await backend.fetchAll().map { RecordID.string(for: $0.id) })
    var saved: [String] = []
    var deleted: [String] = []
    var positions: [String] = []
    var cursor: ChangeCursor?
    var more = true
    while more {
        let page = try await backend.changes(after: cursor, limit: ChangeFeed.maximumPageSize)
        for entry in page.entries {
            if entry.isDeletion { deleted.append(entry.id) } else { saved.append(entry.id) }
            positions.append(entry.cursor.description)
        }
        cursor = page.next
        more = page.hasMore
    }
    // Every batch is 8 inserts, an update and a delete: whole batches only, each logged whole.
    #expect(!records.isEmpty && records.count % 7 == 0)
    #expect(saved.count == records.count && Set(saved) == records)
    #expect(deleted.count == records.count / 7 && Set(deleted).isDisjoint(with: records))
    #expect(Set(positions).count == positions.count)
    // Writing goes on where the log left off.
    let end = try #require(cursor)
    try await backend.apply([.insert(FeedNote(id: -1, text: "after the kill"))])
    #expect(try await backend.changes(after: end, limit: 10).entries.map(\.id) == ["-1"])
}

/// Starts the probe's write loop on `target`, waits for `batches` commits, and SIGKILLs it.
private func killWriter(_ probe: URL, target: String, batches: Int) async throws {
    let process = Process()
    process.executableURL = probe
    process.arguments = ["feed-loop", target, "notes"]
    let pipe = Pipe()
    process.standardOutput = pipe
    let output = OutputBuffer()
    pipe.fileHandleForReading.readabilityHandler = { output.append($0.availableData) }
    try process.run()
    let deadline = ContinuousClock.now + .seconds(60)
    while !output.text.contains("batch \(batches)\n"), !output.text.contains("error"), ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(20))
    }
    kill(process.processIdentifier, SIGKILL)
    while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
    pipe.fileHandleForReading.readabilityHandler = nil
    #expect(output.text.contains("batch \(batches)\n"), "probe said: \(output.text.suffix(300))")
    #expect(process.terminationReason == .uncaughtSignal)
}

/// Bytes a child process printed, gathered from the pipe's handler thread.
private final class OutputBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ chunk: Data) {
        lock.lock()
        defer { lock.unlock() }
        data.append(chunk)
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite("A writer killed mid-transaction leaves records and change log consistent", .timeLimit(.minutes(5)))
struct ChangeFeedKillTests {
    @Test("on SQLite")
    func sqlite() async throws {
        let probe = try #require(TwoProcessTests.probe, "StoragePostgresProbe not found; set STORAGE_POSTGRES_PROBE")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ChangeFeedKill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("notes.sqlite")
        try await killWriter(probe, target: url.path, batches: 20)
        try await checkConsistent(try SQLiteRecordBackend<FeedNote>(url: url, table: "notes"))
    }

    @Test("on PostgreSQL")
    func postgres() async throws {
        let probe = try #require(TwoProcessTests.probe, "StoragePostgresProbe not found; set STORAGE_POSTGRES_PROBE")
        try await PostgresTestServer.with { server in
            try await killWriter(probe, target: server.url.absoluteString, batches: 20)
            let backend = try await PostgresRecordBackend<FeedNote>(url: server.url, table: "notes")
            try await checkConsistent(backend)
            try await backend.shutdown()
        }
    }
}
