// The sync server a crash test runs: serves one resource's sync routes on 127.0.0.1, prints
// `port <n>` once listening, and with `--die-after-commit` kills itself (SIGKILL) right after the
// first write commits, before its answer is sent: the crash a receipt must survive.
//
//     StorageSyncServerProbe sqlite <database file> <table> [--die-after-commit]
//     StorageSyncServerProbe postgres <url> <table> [--die-after-commit]
import Foundation
import Hummingbird
import Storage
import StoragePostgres
import StorageSQLite
import StorageSyncServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The record the crash tests write (the tests declare the same shape).
struct ProbeNote: Codable, Identifiable, Sendable, RevisionedRecord {
    var id: String
    var text: String
    var revision: Int
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(
        Data("usage: StorageSyncServerProbe sqlite|postgres <location> <table> [--die-after-commit]\n".utf8))
    exit(2)
}
let dies = arguments.contains("--die-after-commit")
let store: RecordStore<ProbeNote>
switch arguments[1] {
case "sqlite":
    store = try RecordStore(sqlite: URL(fileURLWithPath: arguments[2]), table: arguments[3], changeFeed: true)
case "postgres":
    guard let url = URL(string: arguments[2]) else { exit(2) }
    store = RecordStore(
        backend: try await PostgresRecordBackend<ProbeNote>(url: url, table: arguments[3], changeFeed: true))
default:
    exit(2)
}
var dieAfterCommit: (@Sendable () async -> Void)?
if dies { dieAfterCommit = { @Sendable () async in _ = kill(getpid(), SIGKILL) } }
let routes = try await SyncRoutes(
    store: store, path: "notes", configuration: SyncConfiguration(), afterCommit: dieAfterCommit)
let router = Router()
routes.add(to: router)
let app = Application(
    router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
    onServerRunning: { channel in
        // Unbuffered: the test reads the line while the server runs.
        FileHandle.standardOutput.write(Data("port \(channel.localAddress?.port ?? 0)\n".utf8))
    })
try await app.runService()
