// swift-format-ignore-file
// (The article's snippets below are kept line for line, as the article prints them.)
import Boilerplate
import CommandsTesting
import Foundation
import NetworkingTesting
import Testing

// Every `swift` block of the DocC article *Testing an app built on Boilerplate*
// (Umbrella/Sources/Boilerplate/Boilerplate.docc/TestingAnApp.md) compiles and runs here,
// against a small notes app shaped like the one `boiler new --template app` writes. The first
// test checks that each block is still in this file line for line, so an article edit that is
// not made here too fails, instead of leaving the article showing code that no longer builds.

/// The article's app: notes added, pinned and imported by commands.
private struct Note: Codable, Sendable, Equatable, Identifiable {
    var createdAt: Date
    var id: UUID
    var text: String
    var pinned = false
}

private struct NotesModel: Codable, Sendable, Equatable {
    var notes: [Note] = []
}

private struct AddNote: Command, Codable {
    var text: String
    var id = UUID()
    var createdAt = Date()
    func execute(_ model: inout NotesModel) throws {
        guard !text.allSatisfy(\.isWhitespace) else { throw MessageError("A note needs some text.") }
        model.notes.append(Note(createdAt: createdAt, id: id, text: text))
    }
}

private struct PinNote: Command, Codable {
    var id: UUID
    var pinned = true
    func execute(_ model: inout NotesModel) throws {
        guard let index = model.notes.firstIndex(where: { $0.id == id }) else {
            throw MessageError("There is no note \(id).")
        }
        model.notes[index].pinned = pinned
    }
}

private struct ImportNotes: AsyncCommand {
    var client: HTTPClient
    struct RemoteNote: Decodable, Sendable { var text: String }
    func execute(_ context: CommandContext<NotesModel>) async throws -> Int {
        let remote: [RemoteNote] = try await client.get("notes")
        return try await context.mutate { model in
            var known = Set(model.notes.map(\.text))
            var added = 0
            for note in remote where known.insert(note.text).inserted {
                model.notes.append(Note(createdAt: Date(timeIntervalSince1970: 0), id: UUID(), text: note.text))
                added += 1
            }
            return added
        }
    }
}

private enum NotesApp {
    static func make(folder: StorageFolder) async throws -> AppCore<NotesModel> {
        try await AppCore(model: NotesModel(), persistence: .file("notes.json", in: folder, app: "com.example.notes"))
    }
}

private struct StoredNote: Codable, Sendable, Equatable, Identifiable, QueryableRecord {
    var id: Int
    var text: String
    static let queryableFields: [QueryField<StoredNote>] = [QueryField(\.text, "text")]
}

/// Counts calls; `count` is only touched while `lock` is held.
private final class Attempts: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func next() -> Int { lock.withLock { count += 1; return count } }
}

/// A folder of the test's own, removed when the test ends.
private func scratchFolder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("TestingArticle-\(UUID())")
}

@Suite("The Testing an app article's snippets")
struct TestingArticleSnippetTests {
    /// The article's `swift` blocks, each as its non-blank lines without indentation.
    static func articleBlocks() throws -> [[String]] {
        let article = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Boilerplate/Boilerplate.docc/TestingAnApp.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if let block = current, trimmed == "```" {
                blocks.append(block)
                current = nil
            } else if current != nil, !trimmed.isEmpty {
                current?.append(trimmed)
            }
        }
        return blocks
    }

    @Test("every swift block of the article is in this file, line for line")
    func articleMatchesThisFile() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let here = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let blocks = try Self.articleBlocks()
        #expect(blocks.count >= 9, "the article has fewer swift blocks than this test runs")
        for block in blocks {
            // Imports sit at the top of this file, and the manifest excerpt is not Swift to run.
            let code = block.filter { !$0.hasPrefix("import ") }
            if code.first == ".testTarget(" { continue }
            let found = here.indices.contains { start in
                start + code.count <= here.count && Array(here[start..<start + code.count]) == code
            }
            #expect(found, "not in TestingArticleSnippetTests.swift line for line:\n\(block.joined(separator: "\n"))")
        }
    }

    @Test("CommandTester: exact assertions, undo, exhaustivity off, journal replay")
    func commandTester() async throws {
        let id = UUID()
        let date = Date(timeIntervalSince1970: 0)
        do {
            let tester = CommandTester(NotesModel(), exhaustivity: .off)
            try tester.execute(AddNote(text: "Milk", id: id, createdAt: date)) { $0.notes[0].text = "Milk" }
            tester.finish()
        }

        // A session's journal, as a bug report would carry it.
        let session = CommandRunner(store: ModelStore(NotesModel()), journalLimit: 10)
        try session.execute(AddNote(text: "Milk", id: id, createdAt: date))
        try session.execute(PinNote(id: id))
        let reportedJournal = try JSONEncoder().encode(session.journal)
        let expectedNotes = session.store.model.notes
        let tester = CommandTester(NotesModel())

        var registry = CommandRegistry<NotesModel>()
        registry.register(AddNote.self)
        registry.register(PinNote.self)
        let journal = try JSONDecoder().decode([JournalEntry].self, from: reportedJournal)
        try await tester.replay(journal, using: registry) { $0.notes = expectedNotes }

        #expect(tester.unassertedChanges.isEmpty)
        tester.finish()
    }

    @Test("StubTransport: canned replies by method and path, computed replies, recorded requests")
    func stubTransport() async throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await NotesApp.make(folder: .custom(folder))

        let transport = StubTransport()
        transport.stub("GET /api/notes", .json(#"[{"text":"Milk"}]"#))
        transport.stub("DELETE /api/notes/*", .status(204))
        let client = HTTPClient(baseURL: URL(string: "https://notes.example/api/")!, transport: transport)
        #expect(try await app.run(ImportNotes(client: client)) == 1)
        #expect(transport.requests.map(\.path) == ["/api/notes"])

        transport.stub("POST /api/notes") { request in
            request.header("Authorization") == nil ? .status(401) : .json(#"{"id":1}"#, status: 201)
        }
        await #expect(throws: HTTPClientError.self) {
            try await client.send(HTTPRequest(method: .post, path: "notes"))
        }
        let authorized = HTTPRequest(method: .post, path: "notes", headers: ["Authorization": "Bearer t"])
        #expect(try await client.send(authorized).status == 201)
        #expect(app.model.notes.map(\.text) == ["Milk"])
    }

    @Test("TestServer: real sockets on 127.0.0.1, redirects followed, requests recorded")
    func testServer() async throws {
        try await withServer { server throws in
            await server.route("GET /api/slow") { _ in Reply.text("late").delayed(by: .seconds(5)) }
            await server.route("GET /api/old", reply: .redirect(to: server.url("api/new").absoluteString))
            await server.route("GET /api/new", reply: .bytes(Data([1, 2, 3])))
            let client = HTTPClient(baseURL: server.apiURL)
            #expect(try await client.send(HTTPRequest(path: "old")).body == Data([1, 2, 3]))
            #expect(server.requests.map(\.path) == ["/api/old", "/api/new"])
        }
    }

    @Test("RecordStore.inMemory: a record store without files, with key-path queries")
    func inMemoryRecords() async throws {
        let notes = RecordStore<StoredNote>.inMemory(name: "notes")
        try await notes.insert(StoredNote(id: 1, text: "Milk"))
        #expect(try await notes.fetch(where: \.text == "Milk").count == 1)
    }

    @Test("ManualClock: a retry waits for the test to advance the clock, not for real time")
    func manualClock() async throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await NotesApp.make(folder: .custom(folder))
        let transport = StubTransport()
        let attempts = Attempts()
        transport.stub("GET /api/notes") { _ in attempts.next() == 1 ? .status(503) : .json(#"[{"text":"Milk"}]"#) }
        let client = HTTPClient(baseURL: URL(string: "https://notes.example/api/")!, transport: transport)

        let clock = ManualClock()
        client.retryPolicy = RetryPolicy(maxAttempts: 2, baseDelay: .seconds(5), jitter: false, clock: clock)
        let importing = Task { try await app.run(ImportNotes(client: client)) }
        await clock.waitForSleepers(1)
        #expect(app.model.notes.isEmpty)          // still waiting to retry
        clock.advance(by: .seconds(5))
        #expect(try await importing.value == 1)

        #expect(attempts.next() == 3)
    }

    @Test("StorageFolder.custom: a folder per test, reopened to test what was saved")
    func temporaryFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("NotesTests-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await NotesApp.make(folder: .custom(folder))
        try await app.run(AddNote(text: "Milk"))
        let reopened = try await NotesApp.make(folder: .custom(folder))
        #expect(reopened.model.notes.map(\.text) == ["Milk"])
    }
}

// The article's first example, at file level as a reader would write it.
@Test func addingANote() async throws {
    let tester = CommandTester(NotesModel())
    let id = UUID()
    let date = Date(timeIntervalSince1970: 0)
    try tester.execute(AddNote(text: "Milk", id: id, createdAt: date)) {
        $0.notes = [Note(createdAt: date, id: id, text: "Milk")]
    }
    try await tester.undo { $0.notes = [] }
    tester.finish()
}
