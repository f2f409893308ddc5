import BoilerplateSync
import Foundation
import Networking
import NetworkingTesting
import PropertyBased
import Storage
import Testing

/// The convergence property: devices make random creates, edits and deletes, sync through
/// proxies that drop requests and answers, duplicate, delay, reorder, answer 503 and refuse
/// connections, and restart (store and engine reopened from their file). After a final sync
/// without faults:
/// 1. every replica equals the server;
/// 2. no write the server acknowledged is lost: the server's records are committed writes, every
///    committed write is the server's record or was replaced by a write made on it (an edit or
///    deletion on its revision, a re-creation after a deletion), and each device's last local
///    write to a record was committed or reported as a conflict;
/// 3. nothing is applied twice: each change is sent under one idempotency key whatever the
///    retries and restarts, one first-time answer per key, each committed write applied on the
///    base it was sent with, and a replay repeats the first answer; outboxes are empty;
/// 4. every conflict was decided by the policy and reported: each 409 a device received is in its
///    conflict log (unless it already is what the write asked for, such as the deletion of a
///    record someone else deleted, which the protocol lets a client take as its answer), each
///    logged decision is the policy's, and each logged conflict came out of `conflictReports()`.
///
/// The programs come from swift-property-based's generators on a fixed seed, a bounded number of
/// cases; the proxies' fault plans are seeded from the case. Under the custom policy, the
/// decisions it made are compared with the log one for one.
@Suite("Sync convergence under faults (property)")
struct SyncConvergencePropertyTests {
    static let seed: (UInt64, UInt64, UInt64, UInt64) = (0x5EED_0033, 39, 2026, 11)
    static let devices = 3
    static let steps = 60

    /// One step of a program: which device acts, what it does, and a number to pick with.
    struct Step: CustomStringConvertible {
        var device: Int
        var action: Int
        var pick: Int

        var description: String { "d\(device):\(action):\(pick)" }
    }

    static func program(_ rng: inout Xoshiro) -> [Step] {
        (0..<steps).map { _ in
            Step(
                device: Gen.int(in: 0..<devices).run(using: &rng), action: Gen.int(in: 0..<100).run(using: &rng),
                pick: Gen.int(in: 0..<1_000).run(using: &rng))
        }
    }

    static let faults: [Fault] = [
        .dropRequest, .dropResponse, .duplicate, .delay(.milliseconds(15)), .reorder, .reset,
        .respond(status: 503, headers: ["Retry-After": "0"]),
    ]

    enum Policy: String, CaseIterable {
        case serverWins, clientWins, merge, custom

        func policy(recording decisions: PolicyDecisions) -> SyncConflictPolicy<Note> {
            switch self {
            case .serverWins: .serverWins
            case .clientWins: .clientWins
            case .merge: .merge { local, server in Note(id: server.id, text: "\(server.text)+\(local.text)") }
            case .custom:
                // Each of the three decisions, chosen by the record's id, every one recorded.
                .custom { input in
                    let decision: SyncDecision<Note>
                    switch input.id.utf8.reduce(0, { $0 + Int($1) }) % 3 {
                    case 0: decision = .keptServer
                    case 1: decision = .keptLocal
                    default:
                        if let local = input.local, let server = input.server {
                            decision = .merged(Note(id: server.id, text: "\(server.text)~\(local.text)"))
                        } else {
                            decision = .keptServer
                        }
                    }
                    decisions.add("\(input.id) \(input.kind.rawValue) \(Self.name(decision))")
                    return decision
                }
            }
        }

        static func name(_ decision: SyncDecision<Note>) -> String {
            switch decision {
            case .keptServer: "keptServer"
            case .keptLocal: "keptLocal"
            case .merged: "merged"
            }
        }
    }

    @Test("devices converge with the server under faults and restarts, SQLite server", arguments: Policy.allCases)
    func convergesOnSQLite(_ policy: Policy) async throws {
        try await Self.check(.sqlite, policy: policy, cases: 3)
    }

    @Test("devices converge with the server under faults and restarts, PostgreSQL server")
    func convergesOnPostgres() async throws {
        try await Self.check(.postgres, policy: .serverWins, cases: 1)
    }

    static func check(_ database: ServerDatabase, policy: Policy, cases: Int) async throws {
        var rng = Xoshiro(seed: seed)
        // Each policy and database draws its own programs from the one seed.
        for _ in 0..<(Policy.allCases.firstIndex(of: policy) ?? 0) * 7 + (database == .postgres ? 3 : 0) {
            _ = rng.next()
        }
        for index in 0..<cases {
            let program = program(&rng)
            let planSeed = rng.next()
            try await withServer(database) { server in
                try await withFolder { folder in
                    try await run(
                        program, planSeed: planSeed, policy: policy, server: server, folder: folder,
                        label: "\(database) \(policy) case \(index) plan seed \(planSeed)")
                }
            }
        }
    }

    /// What a device last did to a record locally.
    enum LastWrite: Equatable {
        case saved(String)
        case deleted
    }

    static func run(
        _ program: [Step], planSeed: UInt64, policy: Policy, server: TestServer, folder: URL, label: String
    ) async throws {
        var devices: [ProxiedDevice] = []
        for index in 0..<Self.devices {
            let decisions = PolicyDecisions()
            devices.append(
                try await ProxiedDevice(
                    "d\(index)", in: folder, server: server,
                    plan: .random(seed: planSeed &+ UInt64(index), faultRate: 0.3, faults: faults),
                    policy: policy.policy(recording: decisions), decisions: decisions))
        }
        do {
            try await play(program, devices: devices, policy: policy, server: server, label: label)
        } catch {
            for device in devices { await device.stop() }
            throw error
        }
        for device in devices { await device.stop() }
    }

    static func play(
        _ program: [Step], devices: [ProxiedDevice], policy: Policy, server: TestServer, label: String
    ) async throws {
        var last: [[String: LastWrite]] = Array(repeating: [:], count: devices.count)
        var written = 0
        for step in program {
            let device = devices[step.device]
            let local = try await device.notes().values.sorted { $0.id < $1.id }
            written += 1
            let text = "\(device.name).\(written)"
            switch step.action {
            case 0..<22:
                // Mostly ids of the device's own; some shared by all, so creates can collide.
                let id = step.pick % 4 == 0 ? "shared\(step.pick % 3)" : "\(device.name)-\(written)"
                guard local.first(where: { $0.id == id }) == nil else { continue }
                try await device.store.insert(Note(id: id, text: text))
                last[step.device][id] = .saved(text)
            case 22..<48:
                guard !local.isEmpty else { continue }
                var note = local[step.pick % local.count]
                note.text = text
                try await device.store.update(note)
                last[step.device][note.id] = .saved(text)
            case 48..<58:
                guard !local.isEmpty else { continue }
                let id = local[step.pick % local.count].id
                try await device.store.delete(id: id)
                last[step.device][id] = .deleted
            case 58..<78:
                _ = try? await device.engine.sync()
            case 78..<85:
                try device.restart()
            case 85..<90:
                if device.proxy.isRefusingConnections {
                    try await device.proxy.acceptConnections()
                } else {
                    await device.proxy.refuseConnections()
                }
            default:
                await withTaskGroup(of: Void.self) { group in
                    for other in devices {
                        let engine = other.engine
                        group.addTask { _ = try? await engine.sync() }
                    }
                }
            }
        }

        // The network heals: every request passes, and the devices sync until nothing changes.
        for device in devices {
            device.proxy.plan = .passThrough
            try await device.proxy.acceptConnections()
        }
        var quiet = false
        for _ in 0..<8 where !quiet {
            let before = try await server.notes()
            for device in devices { try await device.engine.sync() }
            var pending = 0
            for device in devices { pending += try await device.store.pendingCount() }
            let after = try await server.notes()
            quiet = pending == 0 && after == before
        }
        #expect(quiet, "\(label): still changing after 8 rounds")
        // One more pull each, so everyone has the last round's writes.
        for device in devices { try await device.engine.sync() }

        try await verify(devices: devices, last: last, policy: policy, server: server, label: label)
        var exchanges = 0
        var faulted = 0
        var conflicts = 0
        for device in devices {
            exchanges += device.proxy.exchanges.count
            faulted += device.proxy.exchanges.filter { $0.fault != .passThrough }.count
            conflicts += try await device.store.conflicts().count
        }
        let writes = devices.flatMap { ServerWrite.all(in: $0.proxy, device: $0.name) }
        print(
            "\(label): \(exchanges) requests, \(faulted) faulted, \(writes.filter { !$0.replayed && $0.status < 300 }.count) "
                + "writes committed, \(writes.filter(\.replayed).count) replayed, \(conflicts) conflicts, "
                + "\(try await server.notes().count) records")
    }

    static func verify(
        devices: [ProxiedDevice], last: [[String: LastWrite]], policy: Policy, server: TestServer, label: String
    ) async throws {
        let onServer = try await server.notes()
        let writes = devices.flatMap { ServerWrite.all(in: $0.proxy, device: $0.name) }
        let shown = { writes.map(\.description).joined(separator: "\n") }

        // 1. Every replica equals the server: the same records with the same contents, each
        // known at the server's revision (a replica's own revisions only go up, apart from them).
        let serverContents = onServer.mapValues { note in
            var note = note
            note.revision = 0
            return note
        }
        for device in devices {
            #expect(try await device.contents() == serverContents, "\(label): \(device.name) differs from the server")
            #expect(
                try await device.knownServerRevisions() == onServer.mapValues(\.revision),
                "\(label): \(device.name) knows other revisions than the server's")
        }

        // The server only refused conflicts: no malformed request, no key reused, no failure.
        let unexpected = writes.filter { !(200..<300).contains($0.status) && $0.status != 409 }
        #expect(unexpected.isEmpty, "\(label): unexpected answers \(unexpected)")

        // 3. Nothing applied twice: one first-time answer per idempotency key.
        let firstTimes = writes.filter { !$0.replayed }
        let byKey = Dictionary(grouping: firstTimes) { "\($0.clientID) \($0.key)" }
        for (key, answers) in byKey where answers.count > 1 {
            Issue.record("\(label): key \(key) answered first-time \(answers.count) times: \(answers)")
        }
        // A change is sent under one key, however often it is retried, whatever restarts: the
        // same request under two keys would be applied twice, or refused as a conflict with the
        // device's own write. Saves carry a text no other write has; a deletion is the same
        // change as an earlier one of the same record on the same base unless the record was
        // created again in between (a new incarnation starts at revision 0 again).
        let saves = Dictionary(grouping: writes.filter { $0.method != "DELETE" }) {
            "\($0.device) \($0.method) \($0.id) \($0.base ?? -1) \($0.sentText ?? "")"
        }
        for (request, sent) in saves where Set(sent.map(\.key)).count > 1 {
            Issue.record("\(label): \(request) was sent under \(Set(sent.map(\.key)).count) keys: \(sent)")
        }
        for device in devices {
            var deletion: [String: (base: Int?, key: String)] = [:]
            for write in writes where write.device == device.name {
                if write.method == "POST" {
                    deletion[write.id] = nil
                } else if write.method == "DELETE" {
                    if let earlier = deletion[write.id], earlier.base == write.base, earlier.key != write.key {
                        Issue.record(
                            "\(label): \(device.name) sent the deletion of \(write.id) again under a new key: \(write)")
                    }
                    deletion[write.id] = (write.base, write.key)
                }
            }
        }
        let committed = firstTimes.filter { (200..<300).contains($0.status) }
        // Each committed write was applied once, on the base it was sent with: a create at
        // revision 0, an edit at base + 1, a deletion as a tombstone of the base revision.
        for write in committed {
            switch (write.method, write.op) {
            case ("POST", "saved"): #expect(write.revision == 0, "\(label): \(write)")
            case ("PUT", "saved"): #expect(write.revision == write.base.map { $0 + 1 }, "\(label): \(write)")
            case ("DELETE", "deleted"): #expect(write.revision == write.base, "\(label): \(write)")
            default: Issue.record("\(label): an answer that does not fit its request: \(write)")
            }
        }
        // Every replay repeats the first answer's revision.
        for replay in writes where replay.replayed && (200..<300).contains(replay.status) {
            let first = byKey["\(replay.clientID) \(replay.key)"]?.first
            #expect(
                first?.revision == replay.revision && first?.text == replay.text,
                "\(label): replay \(replay) differs from \(String(describing: first))")
        }
        for device in devices {
            #expect(try await device.store.pendingCount() == 0, "\(label): \(device.name) has pending changes")
        }

        // 2. No acknowledged write lost. The server's record is a committed write, and every
        // committed write is either the server's record or was replaced by a write made on it
        // (an edit or deletion on its revision; a re-creation after a deletion).
        for (id, note) in onServer {
            #expect(
                committed.contains {
                    $0.id == id && $0.op == "saved" && $0.text == note.text && $0.revision == note.revision
                },
                "\(label): the server's \(id) (\(note.text) r\(note.revision)) is no committed write")
        }
        for (id, group) in Dictionary(grouping: committed, by: \.id) {
            let final = onServer[id]
            for write in group {
                let replaced: Bool
                if write.op == "saved" {
                    replaced =
                        (final?.text == write.text && final?.revision == write.revision)
                        || group.contains { $0.method != "POST" && $0.base == write.revision }
                } else {
                    replaced = final == nil || group.contains { $0.method == "POST" }
                }
                #expect(replaced, "\(label): \(write) was lost:\n\(shown())")
            }
        }
        for (index, device) in devices.enumerated() {
            let conflicts = try await device.store.conflicts()
            for (id, write) in last[index] {
                let sent = committed.contains { $0.id == id && $0.device == device.name && matches($0, write) }
                let reported = conflicts.contains { $0.id == id && $0.local?.text == text(of: write) }
                // A record created and deleted before it ever reached the server needs nothing sent.
                let neverSent = write == .deleted && onServer[id] == nil
                #expect(
                    sent || reported || neverSent,
                    "\(label): \(device.name)'s last write to \(id) (\(write)) was neither committed nor reported:\n\(shown())"
                )
            }

            // 4. Every conflict decided by the policy and reported.
            let received = writes.filter {
                $0.device == device.name && $0.status == 409 && $0.reachedClient && !$0.isSettled
            }
            for refusal in received {
                #expect(
                    conflicts.contains { $0.id == refusal.id && $0.kind.rawValue == refusal.reason },
                    "\(label): \(device.name) got \(refusal) but logged no such conflict")
            }
            for conflict in conflicts {
                switch (policy, conflict.decision) {
                case (.serverWins, .keptServer), (.clientWins, .keptLocal), (.merge, .merged):
                    break
                case (.merge, .keptServer) where conflict.local == nil || conflict.server == nil:
                    break  // nothing to merge with a deletion: the server wins
                case (.custom, _):
                    break  // checked against the decisions the policy made, below
                default:
                    Issue.record("\(label): \(device.name) decided \(conflict) against the \(policy) policy")
                }
            }
            if policy == .custom {
                // Every decision the policy made is logged, once, as it was made, and nothing else is.
                let logged = conflicts.map { "\($0.id) \($0.kind.rawValue) \(Policy.name($0.decision))" }
                #expect(
                    logged == device.decisions.all,
                    "\(label): \(device.name) logged \(logged), decided \(device.decisions.all)")
            }
            let sequences = Set(conflicts.map(\.sequence))
            #expect(
                try await eventually { device.reported.all.isSuperset(of: sequences) },
                "\(label): \(device.name) logged conflicts \(sequences.subtracting(device.reported.all)) it never reported"
            )
        }
    }

    static func text(of write: LastWrite) -> String? {
        if case .saved(let text) = write { return text }
        return nil
    }

    static func matches(_ committed: ServerWrite, _ write: LastWrite) -> Bool {
        switch write {
        case .saved(let text): committed.op == "saved" && committed.text == text
        case .deleted: committed.op == "deleted"
        }
    }
}

/// Polls `condition` every 10 ms until it holds or `limit` passes (a hang guard, not a timing check).
func eventually(within limit: Duration = .seconds(10), _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
