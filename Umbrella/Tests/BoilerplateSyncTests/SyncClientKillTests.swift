import BoilerplateSync
import Foundation
import Networking
import NetworkingTesting
import Storage
import Testing

/// A client app in a process of its own (`SyncClientProbe`), SIGKILLed in the middle of its local
/// writes, of a push after the server committed, and of a pull between pages, then started again
/// on the same database: nothing is lost or applied twice, and outbox, cursor and records agree.
@Suite("Sync client SIGKILLed mid-sync")
struct SyncClientKillTests {
    static func probe() throws -> URL {
        try #require(ChildProbe.syncClientProbe, "SyncClientProbe is not built beside the tests")
    }

    /// The id in a request's JSON body.
    static func bodyID(_ request: FaultProxy.Request) -> String? {
        (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any])?["id"] as? String
    }

    @Test(
        "killed after the server committed a push whose answer it never got: the restart sends it again, applied once")
    func killedMidPush() async throws {
        let probe = try Self.probe()
        try await withServer { server in
            try await withFolder { folder in
                let database = folder.appendingPathComponent("app.sqlite").path
                // The server commits p-5's create; its answer is held until the app is dead.
                let plan = FaultPlan { request in
                    request.method == "POST" && Self.bodyID(request) == "p-5"
                        ? .delayAnswer(.seconds(120)) : .passThrough
                }
                try await withProxy(to: server, plan: plan) { proxy in
                    let app = try ChildProbe(probe, [database, proxy.baseURL.absoluteString, "--create", "p", "12"])
                    let held = try await eventually(within: .seconds(120)) {
                        proxy.exchanges.contains { Self.bodyID($0.request) == "p-5" && $0.forwardedCount == 1 }
                    }
                    #expect(held, "the push of p-5 never reached the server:\n\(app.text)")
                    #expect(await app.kill() == .uncaughtSignal)

                    // What the dead app left: 12 records; p-0…p-5 on the server; p-5 sent, unanswered,
                    // pending. The answers to p-0…p-4 came, but a push applies answers a batch at a
                    // time, so some may not be applied yet: those stay pending too, in order.
                    let onServer = try await server.notes()
                    #expect(onServer.keys.sorted() == (0...5).map { "p-\($0)" }.sorted())
                    do {
                        let store = try SyncedRecordStore<Note>(url: URL(fileURLWithPath: database), table: "notes")
                        #expect(try await store.records.count() == 12)
                        let pending = try await store.pendingChanges()
                        #expect(pending.count >= 7)
                        #expect(pending.map(\.id) == (12 - pending.count..<12).map { "p-\($0)" })
                        #expect(pending.first?.sentAs == "POST")
                        #expect(pending.allSatisfy { $0.sentAs == nil || $0.sentAs == "POST" })
                        #expect(try await store.cursor() == nil)
                    }

                    proxy.plan = .passThrough
                    let restarted = try ChildProbe(probe, [database, proxy.baseURL.absoluteString])
                    let end = await restarted.finished()
                    #expect(end.reason == .exit && end.status == 0, "\(restarted.text)")
                    #expect(restarted.text.contains("synced pending=0 records=12"), "\(restarted.text)")

                    let final = try await server.notes()
                    #expect(final.count == 12)
                    #expect(final.values.allSatisfy { $0.revision == 0 }, "a create was applied twice: \(final)")
                    let writes = ServerWrite.all(in: proxy, device: "app")
                    let p5 = writes.filter { $0.id == "p-5" }
                    #expect(p5.map(\.replayed) == [false, true], "\(p5)")
                    #expect(Set(p5.map(\.key)).count == 1, "the retry used another idempotency key")
                    // A change whose answer was received but not applied went again, with its key,
                    // and was answered from the receipt.
                    for id in Set(writes.map(\.id)) {
                        let sent = writes.filter { $0.id == id }
                        #expect(Set(sent.map(\.key)).count == 1, "\(id) went with another key: \(sent)")
                        #expect(sent.dropFirst().allSatisfy { $0.replayed }, "\(id) was applied twice: \(sent)")
                    }
                    let firstTimes = writes.filter { !$0.replayed && $0.status == 201 }
                    #expect(firstTimes.count == 12 && Set(firstTimes.map(\.id)).count == 12)
                    let store = try SyncedRecordStore<Note>(url: URL(fileURLWithPath: database), table: "notes")
                    #expect(try await store.pendingCount() == 0)
                    #expect(
                        Dictionary(uniqueKeysWithValues: try await store.records.fetchAll().map { ($0.id, $0) })
                            == final)
                    #expect(try await store.conflicts().isEmpty)
                }
            }
        }
    }

    @Test("killed in the middle of its local writes: every record kept has its outbox entry, and all reach the server")
    func killedMidWrites() async throws {
        let probe = try Self.probe()
        try await withServer { server in
            try await withFolder { folder in
                let database = folder.appendingPathComponent("app.sqlite").path
                try await withProxy(to: server) { proxy in
                    // Nothing reaches the server before the kill: on a loaded machine the app can
                    // finish its writes and start syncing before the kill lands (seen in CI).
                    await proxy.refuseConnections()
                    let app = try ChildProbe(
                        probe, [database, proxy.baseURL.absoluteString, "--create", "w", "120"])
                    #expect(
                        try await eventually(within: .seconds(120)) { app.text.contains("wrote 30\n") }, "\(app.text)")
                    #expect(await app.kill() == .uncaughtSignal)
                    #expect(proxy.exchanges.isEmpty, "a request reached the server before the kill")

                    let ids: Set<String>
                    do {
                        let store = try SyncedRecordStore<Note>(url: URL(fileURLWithPath: database), table: "notes")
                        let records = try await store.records.fetchAll()
                        ids = Set(records.map(\.id))
                        #expect(records.count > 30)
                        // Record and outbox entry commit together: a killed write leaves both or neither.
                        let pending = try await store.pendingChanges()
                        #expect(pending.count == records.count)
                        #expect(Set(pending.map(\.id)) == ids)
                        // A sync round that began before the kill may have decided its requests
                        // (a create is a POST), but none was answered.
                        #expect(pending.allSatisfy { !$0.isDeletion && ($0.sentAs == nil || $0.sentAs == "POST") })
                    }
                    try await proxy.acceptConnections()

                    let restarted = try ChildProbe(probe, [database, proxy.baseURL.absoluteString])
                    let end = await restarted.finished()
                    #expect(end.reason == .exit && end.status == 0, "\(restarted.text)")
                    let final = try await server.notes()
                    #expect(Set(final.keys) == ids)
                    #expect(final.values.allSatisfy { $0.revision == 0 })
                    let store = try SyncedRecordStore<Note>(url: URL(fileURLWithPath: database), table: "notes")
                    #expect(try await store.pendingCount() == 0)
                }
            }
        }
    }

    @Test("killed between two pages of a pull: the pages applied and the cursor agree, and the restart reads on")
    func killedMidPull() async throws {
        let probe = try Self.probe()
        try await withServer { server in
            try await withFolder { folder in
                // Another device puts 40 notes on the server.
                let other = try Device.open("other", in: folder, server: server)
                for number in 0..<40 { try await other.store.insert(Note(id: "n-\(number)", text: "note \(number)")) }
                try await other.engine.sync()

                let database = folder.appendingPathComponent("app.sqlite").path
                // The app's fourth request is its fourth page: the server answers, the proxy holds it.
                let plan = FaultPlan.script([.passThrough, .passThrough, .passThrough, .delayAnswer(.seconds(120))])
                try await withProxy(to: server, plan: plan) { proxy in
                    let app = try ChildProbe(probe, [database, proxy.baseURL.absoluteString, "--page-size", "5"])
                    #expect(
                        try await eventually(within: .seconds(120)) {
                            proxy.exchanges.count == 4 && proxy.exchanges[3].forwardedCount == 1
                        }, "\(app.text)")
                    #expect(await app.kill() == .uncaughtSignal)
                    #expect(proxy.exchanges.allSatisfy { $0.request.method == "GET" })

                    // Three pages applied, each with its cursor: 15 records, the cursor is page 3's `next`.
                    let third = try #require(proxy.exchanges[2].upstreamAnswers.first)
                    let next =
                        (try JSONSerialization.jsonObject(with: third.body) as? [String: Any])?["next"] as? String
                    do {
                        let store = try SyncedRecordStore<Note>(url: URL(fileURLWithPath: database), table: "notes")
                        #expect(try await store.records.count() == 15)
                        #expect(try await store.cursor() == next)
                        #expect(try await store.pendingCount() == 0)
                    }

                    proxy.plan = .passThrough
                    let restarted = try ChildProbe(probe, [database, proxy.baseURL.absoluteString, "--page-size", "5"])
                    let end = await restarted.finished()
                    #expect(end.reason == .exit && end.status == 0, "\(restarted.text)")
                    #expect(restarted.text.contains("synced pending=0 records=40"), "\(restarted.text)")
                    // The restart read on from the stored cursor, not from the start.
                    let resumed = proxy.exchanges.dropFirst(4).first?.request.target ?? ""
                    #expect(resumed.contains("after=\(next ?? "?")"), "\(resumed)")
                    let store = try SyncedRecordStore<Note>(url: URL(fileURLWithPath: database), table: "notes")
                    let local = Dictionary(uniqueKeysWithValues: try await store.records.fetchAll().map { ($0.id, $0) })
                    #expect(local == (try await server.notes()))
                }
            }
        }
    }

    @Test(
        "killed at six seeded moments of writing and syncing through a faulty network: nothing lost or applied twice")
    func killedAtRandomMoments() async throws {
        let probe = try Self.probe()
        try await withServer { server in
            try await withFolder { folder in
                let database = folder.appendingPathComponent("app.sqlite").path
                // Answers held for a while make it likely that a kill lands after a commit the app never heard of.
                let faults: [Fault] = [
                    .dropRequest, .dropResponse, .duplicate, .delayAnswer(.milliseconds(150)),
                    .delayAnswer(.milliseconds(150)),
                ]
                try await withProxy(to: server, plan: .random(seed: 33, faultRate: 0.35, faults: faults)) { proxy in
                    // Fixed moments (the seed's): the first kill lands among the local writes, the
                    // others a few requests into the sync, a few milliseconds after one went out.
                    var state: UInt64 = 39
                    for kill in 0..<6 {
                        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        let draw = Int(state >> 33)
                        let requestsBefore = proxy.exchanges.count
                        let app = try ChildProbe(
                            probe, [database, proxy.baseURL.absoluteString, "--create", "k", "60"])
                        #expect(
                            try await eventually(within: .seconds(120)) { app.text.contains("opened") }, "\(app.text)")
                        if kill == 0 {
                            try await Task.sleep(for: .milliseconds(draw % 300))
                        } else {
                            _ = try await eventually(within: .seconds(60)) {
                                proxy.exchanges.count >= requestsBefore + 1 + draw % 6 || app.text.contains("synced")
                            }
                            try await Task.sleep(for: .milliseconds((draw >> 8) % 60))
                        }
                        let reason = await app.kill()
                        // The app may have finished before its moment came; both are fine.
                        #expect(reason == .uncaughtSignal || app.text.contains("synced"), "kill \(kill): \(app.text)")
                    }
                    proxy.plan = .passThrough
                    let last = try ChildProbe(probe, [database, proxy.baseURL.absoluteString, "--create", "k", "60"])
                    let end = await last.finished()
                    #expect(end.reason == .exit && end.status == 0, "\(last.text)")
                    #expect(last.text.contains("synced pending=0 records=60"), "\(last.text)")

                    let final = try await server.notes()
                    #expect(Set(final.keys) == Set((0..<60).map { "k-\($0)" }))
                    #expect(
                        final.values.allSatisfy {
                            $0.revision == 0 && $0.text == $0.id.replacingOccurrences(of: "-", with: " ")
                        })
                    let writes = ServerWrite.all(in: proxy, device: "app")
                    #expect(writes.allSatisfy { $0.status == 201 }, "\(writes.filter { $0.status != 201 })")
                    // Each note's create went out under one key, across every kill and retry.
                    for (id, sent) in Dictionary(grouping: writes, by: \.id) where Set(sent.map(\.key)).count != 1 {
                        Issue.record("\(id) was sent under \(Set(sent.map(\.key)).count) keys")
                    }
                    let firstTimes = writes.filter { !$0.replayed }
                    #expect(firstTimes.count == 60 && Set(firstTimes.map(\.id)).count == 60, "a create applied twice")
                    let store = try SyncedRecordStore<Note>(url: URL(fileURLWithPath: database), table: "notes")
                    #expect(try await store.pendingCount() == 0)
                    #expect(try await store.conflicts().isEmpty)
                    #expect(
                        Dictionary(uniqueKeysWithValues: try await store.records.fetchAll().map { ($0.id, $0) })
                            == final)
                }
            }
        }
    }
}
