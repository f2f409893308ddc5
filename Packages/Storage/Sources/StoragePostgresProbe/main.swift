// The child process of the two-process PostgreSQL test: increments a shared counter record with
// optimistic concurrency, retrying on conflicts, and reports how many conflicts it met.
//
//     StoragePostgresProbe increment <postgres-url> <table> <times>
//
// prints `done <increments> <conflicts>` and exits 0, or prints the error and exits 1.
//
//     StoragePostgresProbe feed-loop <postgres-url | sqlite-path> <table>
//
// writes batches to a table with a change feed until killed (inserts, an update, a delete), and
// prints `batch <n>` after each commit: the kill test stops it mid-transaction.
import Foundation
import Storage
import StoragePostgres
import StorageSQLite

struct Counter: Codable, Identifiable, Sendable, RevisionedRecord {
    var id: Int
    var value: Int
    var revision = 0
}

struct FeedNote: Codable, Identifiable, Sendable {
    var id: Int
    var text: String
}

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "feed-loop" {
    do {
        let target = arguments[2]
        let backend: any RecordBackend<FeedNote> =
            if target.hasPrefix("postgres://") {
                try await PostgresRecordBackend<FeedNote>(
                    url: URL(string: target) ?? URL(fileURLWithPath: "/"), table: arguments[3], changeFeed: true)
            } else {
                try SQLiteRecordBackend<FeedNote>(
                    url: URL(fileURLWithPath: target), table: arguments[3], changeFeed: true)
            }
        var batch = 0
        while true {
            let base = batch * 10
            try await backend.apply(
                (0..<8).map { .insert(FeedNote(id: base + $0, text: String(repeating: "x", count: 2_000))) }
                    + [.update(FeedNote(id: base, text: "edited")), .delete(base + 1)])
            batch += 1
            // Unbuffered: the test kills this process as soon as it reads the line.
            FileHandle.standardOutput.write(Data("batch \(batch)\n".utf8))
        }
    } catch {
        print("error: \(error)")
        exit(1)
    }
}
guard arguments.count == 5, arguments[1] == "increment", let url = URL(string: arguments[2]),
    let times = Int(arguments[4])
else {
    print("usage: StoragePostgresProbe increment <postgres-url> <table> <times>")
    exit(2)
}

do {
    let backend = try await PostgresRecordBackend<Counter>(url: url, table: arguments[3])
    let counters = RecordStore(backend: backend)
    var conflicts = 0
    var increments = 0
    while increments < times {
        guard var counter = try await counters.fetch(id: 1) else {
            print("error: no counter")
            exit(1)
        }
        counter.value += 1
        do {
            try await counters.update(counter)
            increments += 1
        } catch RecordStoreError.staleRevision {
            conflicts += 1
        }
    }
    try await backend.shutdown()
    print("done \(increments) \(conflicts)")
} catch {
    print("error: \(error)")
    exit(1)
}
