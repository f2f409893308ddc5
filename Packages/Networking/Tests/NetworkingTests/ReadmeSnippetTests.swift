import Foundation
import Networking
import NetworkingTesting
import Testing

/// The issue's snippet, unchanged. It is compiled here (so the contract cannot drift) but
/// not run: it names port 8080, and tests bind only ephemeral ports.
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

/// The snippet as it runs in the test: the same lines, with the base URL of a server on an
/// ephemeral port. `snippetCopyMatches` proves the two differ in that line only.
func readmeSnippet(baseURL: URL, destinationURL: URL) async throws {
    struct Note: Codable, Identifiable, Sendable { var id: Int?; var text: String }

    let client = HTTPClient(baseURL: baseURL)
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
    @Test("the snippet that runs is the issue's snippet, line for line, but for the base URL")
    func snippetCopyMatches() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let contract = try #require(functionBody(named: "func readmeSnippet(destinationURL: URL)", in: source))
        let running = try #require(
            functionBody(named: "func readmeSnippet(baseURL: URL, destinationURL: URL)", in: source))
        #expect(contract.contains(#"HTTPClient(baseURL: URL(string: "http://127.0.0.1:8080/api/")!)"#))
        let substituted = contract.replacingOccurrences(
            of: #"HTTPClient(baseURL: URL(string: "http://127.0.0.1:8080/api/")!)"#,
            with: "HTTPClient(baseURL: baseURL)")
        #expect(substituted == running)
    }

    @Test("the issue's snippet runs against a real server")
    func snippet() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.url.appendingPathComponent("big.bin")
        try Data.pattern(count: 1_000_000).write(to: source)
        let server = try await TestServer.start()
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
            try await readmeSnippet(baseURL: server.apiURL, destinationURL: destination)
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

/// The lines between a function's signature and its closing brace at column 0.
private func functionBody(named signature: String, in source: String) -> String? {
    guard let start = source.range(of: signature + " async throws {\n") else { return nil }
    guard let end = source.range(of: "\n}\n", range: start.upperBound..<source.endIndex) else { return nil }
    return String(source[start.upperBound..<end.lowerBound])
}
