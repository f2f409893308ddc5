import Foundation
import Networking
import NetworkingTesting
import Testing
import _KitSupport

/// A tiny in-memory notes API on the test server.
actor NotesStore {
    var notes: [Int: Note] = [:]
    var nextID = 1

    func handle(_ request: SeenRequest, prefix: String) throws -> Reply {
        let rest = request.path.dropFirst(prefix.count).split(separator: "/").map(String.init)
        switch (request.method, rest.count) {
        case ("GET", 0):
            let all = notes.values.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
            return Reply.json(String(decoding: try JSONEncoder().encode(all), as: UTF8.self))
        case ("POST", 0):
            var note = try JSONDecoder().decode(Note.self, from: request.body)
            if note.text.isEmpty { return .json(#"{"errors":{"text":["can't be blank"]}}"#, status: 422) }
            note.id = nextID
            nextID += 1
            notes[note.id ?? 0] = note
            return .json(String(decoding: try JSONEncoder().encode(note), as: UTF8.self), status: 201)
        case ("GET", 1), ("PUT", 1), ("DELETE", 1):
            guard let id = Int(rest[0]), notes[id] != nil else { return .text("no such note", status: 404) }
            if request.method == "DELETE" {
                notes[id] = nil
                return Reply(status: 204)
            }
            if request.method == "PUT" {
                let note = try JSONDecoder().decode(Note.self, from: request.body)
                if note.text.isEmpty {
                    return .json(#"{"errors":[{"field":"text","message":"can't be blank"}]}"#, status: 422)
                }
                notes[id] = note
            }
            return .json(String(decoding: try JSONEncoder().encode(notes[id]), as: UTF8.self))
        default:
            return .text("unsupported", status: 405)
        }
    }
}

@Suite("Syncing models with a server")
struct RemoteCollectionTests {
    @Test("save creates with POST then updates with PUT; fetchAll, fetch and destroy map to GET and DELETE")
    func lifecycle() async throws {
        try await withServer { server throws in
            let store = NotesStore()
            await server.route("/api/users/7/notes") { try await store.handle($0, prefix: "/api/users/7/notes") }
            await server.route("/api/users/7/notes/*") { try await store.handle($0, prefix: "/api/users/7/notes") }
            let client = HTTPClient(baseURL: server.apiURL)
            let remote = RemoteCollection<Note>(
                client: client, path: "/users/:user/notes/:id", parameters: ["user": "7"])

            var note = try await remote.save(Note(id: nil, text: "draft"))
            #expect(note.id == 1)
            note.text = "final"
            note = try await remote.save(note)
            #expect(try await remote.fetch(id: 1) == Note(id: 1, text: "final"))
            _ = try await remote.save(Note(id: nil, text: "second"))
            #expect(try await remote.fetchAll().map(\.text) == ["final", "second"])
            try await remote.destroy(note)
            #expect(try await remote.fetchAll().map(\.id) == [2])
            #expect(
                server.requests.map { "\($0.method) \($0.path)" }.prefix(3) == [
                    "POST /api/users/7/notes", "PUT /api/users/7/notes/1", "GET /api/users/7/notes/1",
                ])
            await #expect(throws: RemoteError.self) { try await remote.destroy(Note(id: nil, text: "never saved")) }
        }
    }

    @Test("a 422 reply becomes field errors, in either common shape")
    func validationErrors() async throws {
        try await withServer { server throws in
            let store = NotesStore()
            await server.route("/api/notes") { try await store.handle($0, prefix: "/api/notes") }
            await server.route("/api/notes/*") { try await store.handle($0, prefix: "/api/notes") }
            let client = HTTPClient(baseURL: server.apiURL)
            let remote = RemoteCollection<Note>(client: client, path: "notes")
            let error = await #expect(throws: RemoteError.self) { try await remote.save(Note(id: nil, text: "")) }
            #expect(error?.fieldErrors?["text"] == ["can't be blank"])
            #expect(error?.message.contains("text: can't be blank") == true)

            let saved = try await remote.save(Note(id: nil, text: "ok"))
            let update = await #expect(throws: RemoteError.self) {
                try await remote.save(Note(id: saved.id, text: ""))
            }
            #expect(update?.fieldErrors == FieldErrors(["text": ["can't be blank"]]))
        }
    }

    @Test("URL templates fill parameters, encode each as one segment, and name a missing one")
    func templates() throws {
        let template: URLTemplate = "/users/:user/notes/:id"
        #expect(template.parameterNames == ["user", "id"])
        #expect(try template.expand(["user": "a b+c", "id": "5"]) == "users/a%20b%2Bc/notes/5")
        let error = #expect(throws: RemoteError.self) { try template.expand(["user": "1"]) }
        #expect(error?.message == "The URL template \"/users/:user/notes/:id\" needs a value for \":id\".")
    }

    @Test("a single resource fetches with GET, saves with PUT and destroys with DELETE")
    func resource() async throws {
        struct Profile: Codable, Sendable, Equatable { var name: String }
        try await withServer { server throws in
            let stored = Locked(Profile(name: "Tim"))
            await server.route("/api/users/3/profile") { request in
                if request.method == "PUT" {
                    stored.withLock { $0 = (try? JSONDecoder().decode(Profile.self, from: request.body)) ?? $0 }
                }
                if request.method == "DELETE" { return Reply(status: 204) }
                let body = try JSONEncoder().encode(stored.withLock { $0 })
                return .json(String(decoding: body, as: UTF8.self))
            }
            let client = HTTPClient(baseURL: server.apiURL)
            let profile = RemoteResource<Profile>(
                client: client, path: "users/:user/profile", parameters: ["user": "3"])
            #expect(try await profile.fetch() == Profile(name: "Tim"))
            #expect(try await profile.save(Profile(name: "Ana")) == Profile(name: "Ana"))
            try await profile.destroy()
            #expect(server.requests.map(\.method) == ["GET", "PUT", "DELETE"])
        }
    }

    @Test("field errors read a bare object and a non-JSON body")
    func fieldErrorShapes() {
        #expect(FieldErrors(body: Data(#"{"title":"too long"}"#.utf8))["title"] == ["too long"])
        #expect(FieldErrors(body: Data("bad".utf8))["base"] == ["bad"])
    }
}
