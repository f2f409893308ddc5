// The child process of the two-process PostgreSQL test: increments a shared counter record with
// optimistic concurrency, retrying on conflicts, and reports how many conflicts it met.
//
//     StoragePostgresProbe increment <postgres-url> <table> <times>
//
// prints `done <increments> <conflicts>` and exits 0, or prints the error and exits 1.
import Foundation
import Storage
import StoragePostgres

struct Counter: Codable, Identifiable, Sendable, RevisionedRecord {
    var id: Int
    var value: Int
    var revision = 0
}

let arguments = CommandLine.arguments
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
