import Foundation
import Networking
import NetworkingTesting
import Storage
import Testing

@testable import BoilerplateSync

/// A device whose requests go through its own `FaultProxy` in front of the sync server: its
/// database file, its proxy, and — while the app "runs" — its store and engine.
final class ProxiedDevice {
    let name: String
    let file: URL
    let proxy: FaultProxy
    let policy: SyncConflictPolicy<Note>
    private(set) var store: SyncedRecordStore<Note>
    private(set) var engine: SyncEngine<Note>
    /// Every conflict any of this device's engines reported through `conflictReports()`.
    let reported = ReportedConflicts()
    /// The decisions a custom policy made for this device, in order (the caller's recorder).
    let decisions: PolicyDecisions
    private var listeners: [Task<Void, Never>] = []

    init(
        _ name: String, in folder: URL, server: TestServer, plan: FaultPlan, policy: SyncConflictPolicy<Note>,
        decisions: PolicyDecisions = PolicyDecisions()
    ) async throws {
        self.name = name
        self.decisions = decisions
        self.file = folder.appendingPathComponent("\(name).sqlite")
        self.policy = policy
        let proxy = try await FaultProxy.start(
            upstreamPort: UInt16(server.port), plan: plan,
            options: FaultProxy.Options(reorderHold: .milliseconds(30)))
        self.proxy = proxy
        do {
            (store, engine) = try Self.open(file, proxy: proxy, policy: policy)
        } catch {
            await proxy.stop()
            throw error
        }
        listen()
    }

    /// Retries once, quickly and without jitter (the plan, not the clock, decides what fails):
    /// rounds often fail, so changes are sent again by later rounds and restarted apps too, not
    /// only by the HTTP client's retry of one request.
    static let retry = RetryPolicy(
        maxAttempts: 2, baseDelay: .milliseconds(2), maxDelay: .milliseconds(10), jitter: false,
        retriesNonIdempotent: true)

    private static func open(
        _ file: URL, proxy: FaultProxy, policy: SyncConflictPolicy<Note>
    ) throws -> (
        SyncedRecordStore<Note>, SyncEngine<Note>
    ) {
        let store = try SyncedRecordStore<Note>(url: file, table: "notes")
        let client = HTTPClient(baseURL: proxy.baseURL)
        client.timeout = .seconds(30)
        let engine = SyncEngine(
            store: store, client: client, path: "notes",
            configuration: SyncEngineConfiguration(
                conflictPolicy: policy, pageSize: 7, interval: .seconds(3600), retry: retry))
        return (store, engine)
    }

    private func listen() {
        let stream = engine.conflictReports()
        let reported = reported
        listeners.append(Task { for await conflict in stream { reported.add(conflict.sequence) } })
    }

    /// Closes the store and engine and opens them again from the file, as a restarted app does.
    func restart() throws {
        (store, engine) = try Self.open(file, proxy: proxy, policy: policy)
        listen()
    }

    /// The device's records by id.
    func notes() async throws -> [String: Note] {
        Dictionary(uniqueKeysWithValues: try await store.records.fetchAll().map { ($0.id, $0) })
    }

    /// The device's records with their revisions cleared: a replica's revision is its own (it
    /// only goes up, so an editor's old copy is refused), and the server's is kept apart.
    func contents() async throws -> [String: Note] {
        try await notes().mapValues { note in
            var note = note
            note.revision = 0
            return note
        }
    }

    /// The server's revision of each of the device's records, as the device last heard it: the
    /// base its next write of the record is sent on.
    func knownServerRevisions() async throws -> [String: Int] {
        let ids = Array(try await notes().keys)
        return try await store.read { db, tables in
            var revisions: [String: Int] = [:]
            for id in ids { revisions[id] = try tables.serverRevision(of: id, in: db) }
            return revisions
        }
    }

    func stop() async {
        await proxy.stop()
        for listener in listeners { listener.cancel() }
    }
}

/// What a custom conflict policy decided, in the order it was asked: record id, kind, decision.
final class PolicyDecisions: @unchecked Sendable {
    // @unchecked: `made` is only touched while holding `lock`.
    private let lock = NSLock()
    private var made: [String] = []

    func add(_ decision: String) { lock.withLock { made.append(decision) } }
    var all: [String] { lock.withLock { made } }
}

/// Conflict sequences seen on `conflictReports()` streams.
final class ReportedConflicts: @unchecked Sendable {
    // @unchecked: `sequences` is only touched while holding `lock`.
    private let lock = NSLock()
    private var sequences: Set<Int64> = []

    func add(_ sequence: Int64) { lock.withLock { _ = sequences.insert(sequence) } }
    var all: Set<Int64> { lock.withLock { sequences } }
}

/// One answer the sync server gave to a write, read from a proxy's record: what the server
/// committed (or refused), whether or not the client ever saw it.
struct ServerWrite: CustomStringConvertible {
    var device: String
    var method: String
    var id: String
    var clientID: String
    var key: String
    var base: Int?
    var status: Int
    /// `saved` / `deleted` for a 2xx, nil otherwise.
    var op: String?
    var revision: Int?
    var text: String?
    /// The 409's `reason`.
    var reason: String?
    /// The `text` of the record the request carried (nil for a deletion).
    var sentText: String?
    /// A 409's `current`: whether the server has no record (`null` or a tombstone), and the
    /// text of its record when it has one.
    var currentAbsent: Bool
    var currentText: String?

    /// A 409 whose `current` is already what the write asked for (the record gone for a
    /// deletion, the same record for a save): the protocol lets a client take it as the write's
    /// answer rather than a conflict.
    var isSettled: Bool {
        status == 409 && (method == "DELETE" ? currentAbsent : currentText != nil && currentText == sentText)
    }
    var replayed: Bool
    /// Whether this answer was passed on to the client.
    var reachedClient: Bool

    var description: String {
        "\(device) \(method) \(id) key \(key.prefix(8)) base \(base.map(String.init) ?? "-") → \(status) "
            + "\(op ?? reason ?? "") r\(revision.map(String.init) ?? "-") \(text ?? "")\(replayed ? " (replayed)" : "")"
    }

    /// Every write answer in `proxy`'s record.
    static func all(in proxy: FaultProxy, device: String) -> [ServerWrite] {
        var writes: [ServerWrite] = []
        for exchange in proxy.exchanges where exchange.request.method != "GET" {
            let request = exchange.request
            let pathID = request.path.split(separator: "/").dropFirst().first.map {
                String($0).removingPercentEncoding ?? String($0)
            }
            let sent = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
            let bodyID = sent?["id"] as? String
            for (copy, answer) in exchange.upstreamAnswers.enumerated() {
                let json = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any]
                let record = json?["record"] as? [String: Any]
                let current = json?["current"] as? [String: Any]
                let isLast = copy == exchange.upstreamAnswers.count - 1
                writes.append(
                    ServerWrite(
                        device: device, method: request.method, id: pathID ?? bodyID ?? "?",
                        clientID: request.header("Sync-Client-ID") ?? "", key: request.header("Idempotency-Key") ?? "",
                        base: request.header("Sync-Base-Revision").flatMap { Int($0) }, status: answer.status,
                        op: (200..<300).contains(answer.status) ? json?["op"] as? String : nil,
                        revision: (200..<300).contains(answer.status) ? json?["revision"] as? Int : nil,
                        text: record?["text"] as? String, reason: json?["reason"] as? String,
                        sentText: sent?["text"] as? String,
                        currentAbsent: current == nil || current?["op"] as? String == "deleted",
                        currentText: (current?["record"] as? [String: Any])?["text"] as? String,
                        replayed: answer.header("Sync-Replayed") == "true",
                        reachedClient: isLast && exchange.outcome == .answered(status: answer.status)))
            }
        }
        return writes
    }
}

/// A child process run from the tests, its output collected, waited for without blocking a
/// Swift-concurrency thread.
final class ChildProbe: @unchecked Sendable {
    // @unchecked: `output` and `ended` are only touched while holding `lock`.
    private let lock = NSLock()
    private var output = ""
    private var ended: Process.TerminationReason?
    private var waiters: [CheckedContinuation<Void, Never>] = []
    let process = Process()

    init(_ executable: URL, _ arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.output += String(decoding: data, as: UTF8.self) }
        }
        process.terminationHandler = { [weak self] process in
            guard let self else { return }
            let waiting = self.lock.withLock {
                self.ended = process.terminationReason
                defer { self.waiters = [] }
                return self.waiters
            }
            for waiter in waiting { waiter.resume() }
        }
        try process.run()
    }

    var text: String { lock.withLock { output } }

    /// Waits for the process to end and returns how it ended and its status.
    func finished() async -> (reason: Process.TerminationReason, status: Int32) {
        await withCheckedContinuation { continuation in
            let done = lock.withLock {
                if ended != nil { return true }
                waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
        return (lock.withLock { ended } ?? .exit, process.terminationStatus)
    }

    /// Sends SIGKILL and waits for the process to end.
    func kill() async -> Process.TerminationReason {
        Foundation.kill(process.processIdentifier, SIGKILL)
        return await finished().reason
    }
}

extension ChildProbe {
    /// `SyncClientProbe`, which SwiftPM builds into the folder that holds the tests.
    static var syncClientProbe: URL? {
        var folders = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
            $0.bundleURL.deletingLastPathComponent()
        }
        #if os(Linux)
            if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
            }
        #endif
        folders.append(Bundle.main.bundleURL)
        return folders.map { $0.appendingPathComponent("SyncClientProbe") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// Runs `body` with a `FaultProxy` in front of `server`, stopped whatever `body` does.
func withProxy(
    to server: TestServer, plan: FaultPlan = .passThrough, _ body: (FaultProxy) async throws -> Void
) async throws {
    let proxy = try await FaultProxy.start(upstreamPort: UInt16(server.port), plan: plan)
    do {
        try await body(proxy)
    } catch {
        await proxy.stop()
        throw error
    }
    await proxy.stop()
}
