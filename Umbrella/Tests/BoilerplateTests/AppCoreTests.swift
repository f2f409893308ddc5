import Foundation
import Testing
import _KitSupport

@testable import Boilerplate

struct Notebook: Codable, Sendable, Equatable {
    var notes: [String] = []
}

struct AddNoteText: Command {
    var text: String
    func execute(_ model: inout Notebook) throws {
        guard !text.isEmpty else { throw MessageError("A note needs some text.") }
        model.notes.append(text)
    }
}

struct EditNote: Command {
    var index: Int
    var text: String
    func execute(_ model: inout Notebook) throws {
        guard model.notes.indices.contains(index) else { throw MessageError("There is no note \(index).") }
        model.notes[index] = text
    }
}

struct DeleteNote: Command {
    var index: Int
    func execute(_ model: inout Notebook) throws {
        guard model.notes.indices.contains(index) else { throw MessageError("There is no note \(index).") }
        model.notes.remove(at: index)
    }
}

struct SelectNote: Command, TransientCommand {
    func execute(_ model: inout Notebook) throws {}
}

/// Collects what a bus delivers.
final class Heard<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// An empty folder per test, removed at the end.
struct AppFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("appcore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    var persistence: Persistence { .file("notes.json", in: .custom(url), app: "com.example.notes") }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

@Suite("AppCore scenarios")
struct AppCoreTests {
    @Test("create, edit, undo and delete notes through commands, and see each change as an event")
    func commandsAndEvents() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        let app = try await AppCore(model: Notebook(), persistence: folder.persistence)
        let heard = Heard<[String]>()
        let token = app.bus.watch(ModelDidChange<Notebook>.self) { change in heard.append(change.new.notes) }
        defer { token.cancel() }
        try await app.run(AddNoteText(text: "milk"))
        try await app.run(AddNoteText(text: "eggs"))
        try await app.run(EditNote(index: 1, text: "bread"))
        try await app.undo()
        try await app.run(DeleteNote(index: 0))
        #expect(app.model.notes == ["eggs"])
        #expect(heard.all == [["milk"], ["milk", "eggs"], ["milk", "bread"], ["milk", "eggs"], ["eggs"]])
    }

    @Test("a restarted app over the same folder finds the data")
    func restart() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        do {
            let app = try await AppCore(model: Notebook(), persistence: folder.persistence)
            try await app.run(AddNoteText(text: "milk"))
            try await app.run(AddNoteText(text: "eggs"))
        }
        let reopened = try await AppCore(model: Notebook(), persistence: folder.persistence)
        #expect(reopened.model.notes == ["milk", "eggs"])
    }

    @Test("when a change event arrives, the change is already on disk")
    func savedBeforeEvent() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        let app = try await AppCore(model: Notebook(), persistence: folder.persistence)
        let onDisk = Heard<[String]>()
        let files = try #require(app.fileStore)
        let token = app.bus.watch(ModelDidChange<Notebook>.self) { _ in
            onDisk.append((try? files.load(Notebook.self, from: "notes.json"))?.notes ?? ["<nothing saved>"])
        }
        defer { token.cancel() }
        try await app.run(AddNoteText(text: "milk"))
        #expect(onDisk.all == [["milk"]])
    }

    @Test("a failing command leaves the model and the file byte for byte as they were, and says why")
    func failingCommand() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        let app = try await AppCore(model: Notebook(), persistence: folder.persistence)
        try await app.run(AddNoteText(text: "milk"))
        let file = try #require(
            FileManager.default.enumerator(at: folder.url, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.first { $0.lastPathComponent == "notes.json" })
        let before = try Data(contentsOf: file)
        await #expect {
            try await app.run(EditNote(index: 5, text: "x"))
        } throws: { error in
            error.userMessage == "There is no note 5."
        }
        #expect(app.model.notes == ["milk"])
        #expect(try Data(contentsOf: file) == before)
    }

    @Test("transient commands are published but not saved")
    func transient() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        let app = try await AppCore(model: Notebook(), persistence: folder.persistence)
        try await app.run(SelectNote())
        #expect(app.fileStore?.exists("notes.json") == false)
    }

    @Test("a corrupt save file is an error at launch, never silently replaced by the initial model")
    func corruptFile() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        do {
            let app = try await AppCore(model: Notebook(), persistence: folder.persistence)
            try await app.run(AddNoteText(text: "milk"))
        }
        let file = try #require(
            FileManager.default.enumerator(at: folder.url, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.first { $0.lastPathComponent == "notes.json" })
        try Data("{\"notes\": [".utf8).write(to: file)
        await #expect(throws: AppCoreError.self) {
            _ = try await AppCore(model: Notebook(), persistence: folder.persistence)
        }
    }

    @Test("deep links reach the app's routes with their parameters")
    func deepLinks() async throws {
        let app = try await AppCore(model: Notebook())
        let opened = Heard<String>()
        try app.router.add("/notes/:id") { match in opened.append(match.params["id"] ?? "?") }
        try app.router.navigate(to: "notesapp://notes/42")
        try app.router.navigate(to: "/notes/7?highlight=true")
        #expect(opened.all == ["42", "7"])
        #expect(!app.router.canNavigate(to: "/settings"))
    }

    @Test("many concurrent commands all land, and the file holds the final model")
    func concurrentCommands() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        let app = try await AppCore(model: Notebook(), persistence: folder.persistence)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 { group.addTask { try await app.run(AddNoteText(text: "note \(index)")) } }
            try await group.waitForAll()
        }
        #expect(app.model.notes.count == 200)
        let saved = try #require(app.fileStore).load(Notebook.self, from: "notes.json")
        #expect(saved == app.model)
    }
}
