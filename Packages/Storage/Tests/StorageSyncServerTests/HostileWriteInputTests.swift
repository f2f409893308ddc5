import Foundation
import HTTPTypes
import NIOCore
import NIOPosix
import Storage
import StorageSyncServer
import Testing

@Suite("Hostile write headers and bodies get a typed 4xx, never a write, a crash or an echo")
struct HostileWriteInputTests {
    @Test("missing or malformed client id, key and base revision are 400 with the header's reason")
    func badHeaders() async throws {
        try await SyncDatabaseFixture.with(.sqlite) { fixture in
            let store = try await fixture.openStore()
            try await store.insert(SyncNote(id: "n1", text: "kept"))
            let routes = try await SyncRoutes(store: store, path: "notes")
            try await serving(routes) { http in
                let note = SyncNote(id: "n2", text: "x")
                let noClient = try await http.write(.post, "/notes", client: nil, key: "k", note: note)
                #expect(noClient.status == 400 && noClient.reason == "missingClientID")
                let noKey = try await http.write(.post, "/notes", key: nil, note: note)
                #expect(noKey.status == 400 && noKey.reason == "missingIdempotencyKey")
                let noBase = try await http.write(.put, "/notes/n1", key: "k", note: SyncNote(id: "n1", text: "x"))
                #expect(noBase.status == 400 && noBase.reason == "missingBaseRevision")
                let baseOnCreate = try await http.write(.post, "/notes", key: "k", base: 0, note: note)
                #expect(baseOnCreate.status == 400 && baseOnCreate.reason == "invalidBaseRevision")
                for (name, value, reason) in [
                    (SyncHeader.baseRevision, "01", "invalidBaseRevision"),
                    (SyncHeader.baseRevision, "-1", "invalidBaseRevision"),
                    (SyncHeader.baseRevision, "1e3", "invalidBaseRevision"),
                    (SyncHeader.idempotencyKey, "has space", "invalidIdempotencyKey"),
                    (SyncHeader.idempotencyKey, "quote\"inside", "invalidIdempotencyKey"),
                    (SyncHeader.idempotencyKey, String(repeating: "k", count: 129), "invalidIdempotencyKey"),
                    (SyncHeader.clientID, "tab\there", "invalidClientID"),
                    (SyncHeader.clientID, "has space", "invalidClientID"),
                    (SyncHeader.clientID, String(repeating: "c", count: 65), "invalidClientID"),
                ] {
                    var headers: HTTPFields = [
                        SyncHeader.clientID: "device-a", SyncHeader.idempotencyKey: "k", SyncHeader.baseRevision: "0",
                    ]
                    headers[name] = value
                    let reply = try await http.send(
                        .put, "/notes/n1", headers: headers, body: try noteBody(SyncNote(id: "n1", text: "x")))
                    #expect(reply.status == 400, "\(name): \(value)")
                    #expect(reply.reason == reason, "\(name): \(value)")
                }
                // The same header twice is ambiguous, not "the first one wins".
                var twice: HTTPFields = [SyncHeader.clientID: "device-a", SyncHeader.baseRevision: "0"]
                twice.append(HTTPField(name: SyncHeader.idempotencyKey, value: "k1"))
                twice.append(HTTPField(name: SyncHeader.idempotencyKey, value: "k2"))
                let repeated = try await http.send(.put, "/notes/n1", headers: twice, body: try noteBody(note))
                #expect(repeated.status == 400 && repeated.reason == "invalidIdempotencyKey")
                // The quoted form of the key (an RFC 8941 string) names the same key.
                let quoted = try await http.write(.post, "/notes", key: "\"k-quoted\"", note: note)
                let bare = try await http.write(.post, "/notes", key: "k-quoted", note: note)
                #expect(quoted.status == 201 && bare.body == quoted.body && bare.header(SyncHeader.replayed) == "true")
                #expect(try await store.fetch(id: "n1") == SyncNote(id: "n1", text: "kept"))
            }
        }
    }

    @Test("a 10 MB idempotency key is refused without being read back, and the server keeps serving")
    func hugeKey() async throws {
        try await SyncDatabaseFixture.with(.sqlite) { fixture in
            let store = try await fixture.openStore()
            let routes = try await SyncRoutes(store: store, path: "notes")
            try await serving(routes) { http in
                // 16 KB passes the HTTP layer: the routes refuse it by its length, without echoing it.
                let long = try await http.write(
                    .post, "/notes", key: String(repeating: "k", count: 16_384), note: SyncNote(id: "n1", text: "x"))
                #expect(long.status == 400 && long.reason == "invalidIdempotencyKey")
                #expect(long.body.count < 1_000)
                // 10 MB is refused by the HTTP layer before any route runs (400, or a closed connection).
                let key = String(repeating: "k", count: 10 * 1_024 * 1_024)
                if let reply = try? await http.write(.post, "/notes", key: key, note: SyncNote(id: "n1", text: "x")) {
                    #expect([400, 431].contains(reply.status))
                    #expect(reply.body.count < 1_000)
                }
                #expect(try await store.fetch(id: "n1") == nil)
                let next = try await http.write(.post, "/notes", key: "k", note: SyncNote(id: "n1", text: "x"))
                #expect(next.status == 201)
            }
        }
    }

    @Test("a newline inside a header, sent as raw bytes, is refused and writes nothing")
    func newlineInHeader() async throws {
        try await SyncDatabaseFixture.with(.sqlite) { fixture in
            let store = try await fixture.openStore()
            let routes = try await SyncRoutes(store: store, path: "notes")
            try await serving(routes) { http in
                let body = String(decoding: try noteBody(SyncNote(id: "n1", text: "x")), as: UTF8.self)
                for injected in ["k1\nSync-Client-ID: forged", "k1\r\n\tfolded", "k1\rx", "k1\u{0}x"] {
                    let request =
                        "POST /notes HTTP/1.1\r\nHost: 127.0.0.1\r\nSync-Client-ID: device-a\r\n"
                        + "Idempotency-Key: \(injected)\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                    let answer = try await RawHTTP.exchange(Data(request.utf8), port: http.port)
                    #expect(answer != "timeout", "the server neither answered nor closed")
                    let status = answer.split(separator: " ", maxSplits: 2).dropFirst().first.map(String.init)
                    // Either the parser refuses the request (400, or the connection closed with no
                    // answer) or the routes refuse the key: never a 2xx.
                    #expect(
                        status == nil || status?.hasPrefix("4") == true,
                        "\(injected.debugDescription): \(answer.prefix(80))")
                }
                #expect(try await store.fetch(id: "n1") == nil)
                #expect(try await store.count() == 0)
            }
        }
    }

    @Test("bodies that are not a record, or another record than the path, are 422; an oversized body is 413")
    func badBodies() async throws {
        try await SyncDatabaseFixture.with(.sqlite) { fixture in
            let store = try await fixture.openStore()
            try await store.insert(SyncNote(id: "n1", text: "kept"))
            let routes = try await SyncRoutes(
                store: store, path: "notes", configuration: SyncConfiguration(maximumBodySize: 4_096))
            try await serving(routes) { http in
                let headers: HTTPFields = [
                    SyncHeader.clientID: "device-a", SyncHeader.idempotencyKey: "k", SyncHeader.baseRevision: "0",
                ]
                for body in ["", "not json", "{}", #"{"id":"n1"}"#, #"{"id":1,"text":"x","revision":0}"#, "[1,2]"] {
                    let reply = try await http.send(.put, "/notes/n1", headers: headers, body: Data(body.utf8))
                    #expect(reply.status == 422 && reply.reason == "invalidRecord", "body \(body)")
                }
                let other = try await http.write(
                    .put, "/notes/n1", key: "k2", base: 0, note: SyncNote(id: "n2", text: "x"))
                #expect(other.status == 422 && other.reason == "idMismatch")
                let large = SyncNote(id: "n1", text: String(repeating: "x", count: 10_000))
                let tooLarge = try await http.write(.put, "/notes/n1", key: "k3", base: 0, note: large)
                #expect(tooLarge.status == 413 && tooLarge.reason == "bodyTooLarge")
                let badID = try await http.write(.delete, "/notes/%FF%FE", key: "k4", base: 0)
                #expect(badID.status == 400 && badID.reason == "invalidRecordID")
                #expect(try await store.fetch(id: "n1") == SyncNote(id: "n1", text: "kept"))
            }
        }
    }
}

/// Sends raw bytes to 127.0.0.1 and reads until the server closes (or 60 s pass): for requests an
/// HTTP client refuses to make.
enum RawHTTP {
    static func exchange(_ bytes: Data, port: Int) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    try await outbound.write(ByteBuffer(bytes: bytes))
                    var received = Data()
                    do {
                        for try await chunk in inbound { received.append(contentsOf: chunk.readableBytesView) }
                    } catch {
                        // A reset after the answer still leaves the answer.
                    }
                    return String(decoding: received, as: UTF8.self)
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(60))
                return "timeout"
            }
            let first = try await group.next() ?? ""
            group.cancelAll()
            return first
        }
    }
}
