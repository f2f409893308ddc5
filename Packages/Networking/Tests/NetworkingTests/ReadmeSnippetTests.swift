import Foundation
import Networking
import Testing

/// The issue's snippet, unchanged, run against a real server on 127.0.0.1:8080.
func readmeSnippet(destinationURL: URL) async throws {
    struct Note: Codable, Identifiable, Sendable { var id: Int?; var text: String }

    let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:8080/api/")!)
    client.headers["X-App"] = "demo"
    client.auth = .basic(username: "tim", password: "secret")  // or .bearer(token), or a refresher
    let notes: [Note] = try await client.get("notes", query: ["page": "2", "q": "a&b=c"])
    let created: Note = try await client.post("notes", json: Note(id: nil, text: "hi"))
    try await client.delete("notes/5")
    let response = try await client.send(HTTPRequest(method: .patch, path: "notes/5", json: ["text": "x"]))
    print(response.status, response.headers["Content-Type"] as Any)
    let file = try await client.download("files/big.bin", to: destinationURL) { progress in
        print(progress.fractionCompleted)
    }

    let remote = RemoteCollection<Note>(client: client, path: "notes")
    var note = Note(id: nil, text: "draft")
    note = try await remote.save(note)  // POST when new (id assigned from the reply), PUT when not
    let all = try await remote.fetchAll()
    try await remote.destroy(note)

    _ = (notes, created, file, all)
}

@Suite("README snippet", .serialized)
struct ReadmeSnippetTests {
    @Test("the issue's snippet compiles unchanged and runs against a real server")
    func snippet() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.url.appendingPathComponent("big.bin")
        try Data.pattern(count: 1_000_000).write(to: source)
        let server = try await startOn8080()
        do {
            let store = NotesStore()
            let handler: @Sendable (SeenRequest) async throws -> Reply = { request in
                if request.method == "PATCH" { return .json(#"{"id":5,"text":"x"}"#) }
                if request.method == "DELETE", request.path == "/api/notes/5" { return Reply(status: 204) }
                return try await store.handle(request, prefix: "/api/notes")
            }
            await server.route("/api/notes", handler)
            await server.route("/api/notes/*", handler)
            await server.file("GET /api/files/big.bin", at: source)
            let destination = directory.url.appendingPathComponent("downloaded.bin")
            try await readmeSnippet(destinationURL: destination)
            #expect(try Data(contentsOf: destination) == Data(contentsOf: source))
            let first = try #require(server.requests.first)
            #expect(first.header("X-App") == "demo")
            #expect(first.header("Authorization") == "Basic dGltOnNlY3JldA==")
            #expect(first.query["q"] == "a&b=c")
            #expect(
                server.requests.map(\.method) == ["GET", "POST", "DELETE", "PATCH", "GET", "POST", "GET", "DELETE"])
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }
}

/// The snippet names port 8080; wait a little if another process holds it for a moment.
private func startOn8080() async throws -> TestServer {
    var attempt = 0
    while true {
        do {
            return try await TestServer.start(port: 8080)
        } catch {
            attempt += 1
            if attempt >= 20 { throw error }
            try await Task.sleep(for: .milliseconds(250))
        }
    }
}
