import Foundation
import Testing

@testable import Boilerplate

/// A notebook whose score can be set to a value JSON cannot hold: its save fails before a
/// byte is written.
struct ScoredNotebook: Codable, Sendable, Equatable {
    var notes: [String] = []
    var score = 0.0
}

struct AddScoredNote: Command {
    var text: String
    func execute(_ model: inout ScoredNotebook) throws { model.notes.append(text) }
}

struct SetScore: Command {
    var score: Double
    func execute(_ model: inout ScoredNotebook) throws { model.score = score }
}

@Suite("AppCore: a change whose save fails never happened")
struct AppCoreSaveFailureTests {
    /// An app over a real folder with two saved notes (one undone, so redo has a step), and
    /// the events it publishes.
    struct Setup {
        let folder: AppFolder
        let app: AppCore<ScoredNotebook>
        let heard = Heard<String>()
        let token: WatchToken
        let file: URL

        init() async throws {
            folder = try AppFolder()
            app = try await AppCore(model: ScoredNotebook(), persistence: folder.persistence)
            try await app.run(AddScoredNote(text: "milk"))
            try await app.run(AddScoredNote(text: "eggs"))
            try await app.undo()
            file = try #require(app.fileStore).url(for: "notes.json")
            token = app.bus.watch(ModelDidChange<ScoredNotebook>.self) { [heard] change in heard.append(change.command)
            }
        }

        var state: [String] {
            [
                "\(app.model)", "\(app.runner.canUndo) \(app.runner.undoName ?? "-")",
                "\(app.runner.canRedo) \(app.runner.redoName ?? "-")",
            ]
        }
    }

    /// Checks that `attempt` throws AppCoreError.saveFailed naming the file, and that the
    /// model, the undo history, the file and the bus are as before.
    func expectNothingHappened(
        _ setup: Setup, sourceLocation: Testing.SourceLocation = #_sourceLocation,
        _ attempt: () async throws -> Void
    ) async throws {
        let before = setup.state
        let bytes = try? Data(contentsOf: setup.file)
        do {
            try await attempt()
            Issue.record("The save should have failed.", sourceLocation: sourceLocation)
        } catch let error as AppCoreError {
            guard case .saveFailed(let file, let underlying) = error else {
                Issue.record("Expected saveFailed, got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(file == "notes.json", sourceLocation: sourceLocation)
            #expect(error.message.contains("notes.json"), sourceLocation: sourceLocation)
            #expect(error.message.contains(underlying.userMessage), sourceLocation: sourceLocation)
        }
        #expect(setup.state == before, sourceLocation: sourceLocation)
        #expect((try? Data(contentsOf: setup.file)) == bytes, sourceLocation: sourceLocation)
        #expect(setup.heard.all.isEmpty, sourceLocation: sourceLocation)
    }

    @Test("a command whose model cannot be encoded: run throws, the file keeps its bytes")
    func unencodableModel() async throws {
        let setup = try await Setup()
        defer { setup.folder.remove() }
        try await expectNothingHappened(setup) { try await setup.app.run(SetScore(score: .nan)) }
        // The app goes on: the next change is saved without the rolled-back one.
        try await setup.app.run(AddScoredNote(text: "bread"))
        let saved = try JSONDecoder().decode(ScoredNotebook.self, from: Data(contentsOf: setup.file))
        #expect(saved == ScoredNotebook(notes: ["milk", "bread"]))
        #expect(setup.heard.all == ["AddScoredNote"])
    }

    @Test("a folder where the file should be: run, undo and redo throw, and change nothing")
    func folderInTheWay() async throws {
        let setup = try await Setup()
        defer { setup.folder.remove() }
        try FileManager.default.removeItem(at: setup.file)
        try FileManager.default.createDirectory(
            at: setup.file.appendingPathComponent("in the way"), withIntermediateDirectories: true)
        try await expectNothingHappened(setup) { try await setup.app.run(AddScoredNote(text: "bread")) }
        try await expectNothingHappened(setup) { try await setup.app.undo() }
        try await expectNothingHappened(setup) { try await setup.app.redo() }
        try await expectNothingHappened(setup) { try await setup.app.save() }
        try FileManager.default.removeItem(at: setup.file)
        try await setup.app.redo()
        let saved = try JSONDecoder().decode(ScoredNotebook.self, from: Data(contentsOf: setup.file))
        #expect(saved == ScoredNotebook(notes: ["milk", "eggs"]))
    }

    @Test("the runner AppCore exposes saves too; a second runner over its store is refused")
    func noWayAroundTheSave() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        let app = try await AppCore(model: Notebook(), persistence: folder.persistence)
        let heard = Heard<String>()
        let token = app.bus.watch(ModelDidChange<Notebook>.self) { change in heard.append(change.command) }
        defer { token.cancel() }
        try app.runner.execute(AddNoteText(text: "milk"))
        let file = try #require(app.fileStore).url(for: "notes.json")
        #expect(try JSONDecoder().decode(Notebook.self, from: Data(contentsOf: file)).notes == ["milk"])
        #expect(heard.all == ["AddNoteText"])
        let bypass = CommandRunner(store: app.store)
        #expect(throws: CommandError.foreignStore(command: "AddNoteText")) {
            try bypass.execute(AddNoteText(text: "eggs"))
        }
        await #expect(throws: CommandError.foreignStore(command: "AddNoteText")) {
            try await bypass.run(AddNoteText(text: "eggs"))
        }
        #expect(app.model.notes == ["milk"])
        #expect(heard.all == ["AddNoteText"])
    }
}
