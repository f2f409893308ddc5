import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import Storage
import StorageSQLite
import StorageSyncServer
import Testing

/// The README's record type, as the snippet declares it.
private struct Note: Codable, Identifiable, Sendable, RevisionedRecord {
    var id: String
    var title: String
    var revision = 0
}

/// The README's server snippet, unchanged, in a function; `folder` and `port` are what it assumes.
private func readmeServer(folder: URL, port: Int) async throws {
    // — the snippet (its type declaration is above) —
    let notes = try RecordStore<Note>(sqlite: folder.appending(path: "notes.sqlite"), table: "notes", changeFeed: true)
    let sync = try await SyncRoutes(store: notes, path: "notes")
    let router = Router()
    sync.add(to: router)  // GET /notes/changes, POST /notes, PUT and DELETE /notes/{id}
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
    try await app.runService()
    // — end of the snippet —
}

@Suite("The README's sync server example")
struct SyncReadmeTests {
    @Test("compiles, serves, and answers the curl example as written")
    func snippet() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("SyncReadme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try await freePort()
        let server = Task { try await readmeServer(folder: folder, port: port) }
        defer { server.cancel() }
        let http = SyncHTTP(port: port)
        var listening = false
        for _ in 0..<500 where !listening {
            listening = (try? await http.changes()) != nil
            if !listening { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(listening)
        let create = try await http.write(
            .post, "/notes", client: "phone-1", key: "1a", note: SyncNote(id: "n1", text: "x"))
        // The README's Note has a title, not a text: the body is not one of its records.
        #expect(create.status == 422 && create.reason == "invalidRecord")
        var headers: HTTPFields = [SyncHeader.clientID: "phone-1", SyncHeader.idempotencyKey: "7c1e0e"]
        let created = try await http.send(
            .post, "/notes", headers: headers, body: Data(#"{"id":"n1","title":"Milk","revision":0}"#.utf8))
        #expect(created.status == 201)
        headers[SyncHeader.idempotencyKey] = "7c1e0f"
        headers[SyncHeader.baseRevision] = "0"
        let body = Data(#"{"id":"n1","title":"Milk and bread","revision":0}"#.utf8)
        let put = try await http.send(.put, "/notes/n1", headers: headers, body: body)
        #expect(put.status == 200)
        #expect(try put.json["protocol"] as? Int == 1 && put.json["revision"] as? Int == 1)
        #expect((try put.json["record"] as? [String: Any])?["title"] as? String == "Milk and bread")
        let again = try await http.send(.put, "/notes/n1", headers: headers, body: body)
        #expect(again.body == put.body && again.header(SyncHeader.replayed) == "true")
        server.cancel()
        _ = await server.result
    }
}

/// A port nothing listens on now: bound on 127.0.0.1:0, read, and released.
private func freePort() async throws -> Int {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .bind(host: "127.0.0.1", port: 0).get()
    let port = channel.localAddress?.port ?? 0
    try await channel.close()
    return port
}
