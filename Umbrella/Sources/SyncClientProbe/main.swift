// The child process of BoilerplateSync's kill tests: an app with a synced store that a test
// SIGKILLs in the middle of its local writes, a push or a pull, then starts again on the same
// database file. It says on stdout, one write(2) per line, what it has done.
//
// Arguments: <database file> <server base URL> [--create PREFIX COUNT] [--page-size N]
//   --create: inserts the notes PREFIX-0…PREFIX-(COUNT-1) it does not have yet, each in its own
//   transaction ("wrote i").
//   Then syncs (push, pull) until the outbox is empty ("synced pending=0 records=N"), retrying a
//   failed round ("round failed: …") after 0.1 s for up to a minute. Exit status 0 when synced,
//   1 otherwise.
import BoilerplateSync
import Foundation
import Networking
import Serialization
import Storage

/// The record the sync tests keep on both ends (the same shape as the tests' `Note`).
struct Note: Codable, Identifiable, Sendable, Equatable, RevisionedRecord, Versioned {
    var id: String
    var text: String
    var revision: Int = 0
    static let version = 1
}

func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBytes { buffer in _ = write(1, buffer.baseAddress, buffer.count) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let server = URL(string: arguments[1]) else {
    say("usage: SyncClientProbe <database> <server URL> [--create PREFIX COUNT] [--page-size N]")
    exit(2)
}
let database = URL(fileURLWithPath: arguments[0])
var create: (prefix: String, count: Int)?
var pageSize = 500
var index = 2
while index < arguments.count {
    switch arguments[index] {
    case "--create" where index + 2 < arguments.count:
        create = (arguments[index + 1], Int(arguments[index + 2]) ?? 0)
        index += 3
    case "--page-size" where index + 1 < arguments.count:
        pageSize = Int(arguments[index + 1]) ?? 500
        index += 2
    default:
        say("unknown argument \(arguments[index])")
        exit(2)
    }
}

do {
    let store = try SyncedRecordStore<Note>(url: database, table: "notes")
    say("opened pending=\(try await store.pendingCount())")
    if let create {
        // Notes a killed run already wrote are kept: a restarted app carries on where it was.
        for number in 0..<create.count where try await store.records.fetch(id: "\(create.prefix)-\(number)") == nil {
            try await store.insert(Note(id: "\(create.prefix)-\(number)", text: "\(create.prefix) \(number)"))
            say("wrote \(number)")
        }
    }
    let client = HTTPClient(baseURL: server)
    client.timeout = .seconds(60)
    let engine = SyncEngine(
        store: store, client: client, path: "notes",
        configuration: SyncEngineConfiguration(
            pageSize: pageSize, interval: .seconds(3600),
            retry: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5), jitter: false, retriesNonIdempotent: true)))
    // Rounds go on for a minute, not for a count: a test that refuses connections until it has
    // killed this process must find it still running however fast the rounds fail (50 rounds
    // took under 2 s, and a loaded test run's kill came after the probe had given up).
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
        do {
            try await engine.sync()
            if try await store.pendingCount() == 0 {
                say("synced pending=0 records=\(try await store.records.count())")
                exit(0)
            }
        } catch {
            say("round failed: \(error)")
            try await Task.sleep(for: .milliseconds(100))
        }
    }
    say("gave up pending=\(try await store.pendingCount())")
    exit(1)
} catch {
    say("failed: \(error)")
    exit(1)
}
