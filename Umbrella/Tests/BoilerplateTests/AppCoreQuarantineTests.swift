import Foundation
import Testing

@testable import Boilerplate

/// A damaged save file is never silently replaced: every launch fails, naming the moved file,
/// until the app decides through ``Persistence``.
@Suite("AppCore and a damaged save file")
struct AppCoreQuarantineTests {
    /// Saves one note, then damages the save file the way a half-synced copy would.
    static func damagedApp(in folder: AppFolder) async throws -> URL {
        do {
            let app = try await AppCore(model: Notebook(), persistence: folder.persistence)
            try await app.run(AddNoteText(text: "milk"))
        }
        let file = try #require(
            FileManager.default.enumerator(at: folder.url, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.first { $0.lastPathComponent == "notes.json" })
        try Data("{\"notes\": [".utf8).write(to: file)
        return file
    }

    /// The moved file a launch's error names, or nil when it failed otherwise.
    static func movedFile(launching folder: AppFolder) async -> URL? {
        do {
            _ = try await AppCore(model: Notebook(), persistence: folder.persistence)
            return nil
        } catch AppCoreError.loadFailed(file: "notes.json", let underlying) {
            guard case StorageError.corrupt(_, let movedTo, _) = underlying else { return nil }
            return movedTo
        } catch {
            return nil
        }
    }

    @Test("every launch after the damage fails with the same moved file, and nothing overwrites it")
    func everyLaunchFails() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        _ = try await Self.damagedApp(in: folder)
        let first = try #require(await Self.movedFile(launching: folder))
        let second = try #require(await Self.movedFile(launching: folder))
        #expect(first == second)
        #expect(try folder.persistence.quarantinedFile() == first)
        #expect(try Data(contentsOf: first) == Data("{\"notes\": [".utf8))
    }

    @Test("startFresh keeps the damaged file and lets the next launch start from the given model")
    func startFresh() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        _ = try await Self.damagedApp(in: folder)
        let moved = try #require(await Self.movedFile(launching: folder))
        let kept = try folder.persistence.startFresh()
        #expect(kept.count == 1)
        #expect(try Data(contentsOf: try #require(kept.first)) == Data("{\"notes\": [".utf8))
        #expect(!FileManager.default.fileExists(atPath: moved.path))
        #expect(try folder.persistence.quarantinedFile() == nil)
        let app = try await AppCore(model: Notebook(), persistence: folder.persistence)
        #expect(app.model == Notebook())
    }

    @Test("restoreQuarantined puts a repaired file back, and the next launch loads it")
    func restore() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        let file = try await Self.damagedApp(in: folder)
        let moved = try #require(await Self.movedFile(launching: folder))
        // The user (or an app update) repaired the moved file.
        try Data("{\"notes\": [\"milk\"]}".utf8).write(to: moved)
        #expect(try folder.persistence.restoreQuarantined() == file)
        let app = try await AppCore(model: Notebook(), persistence: folder.persistence)
        #expect(app.model.notes == ["milk"])
    }

    @Test("restoring when nothing awaits a decision is a typed error; memory-only persistence has nothing to decide")
    func nothingToDecide() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        #expect(throws: StorageError.self) { try folder.persistence.restoreQuarantined() }
        #expect(try folder.persistence.startFresh().isEmpty)
        #expect(try Persistence.none.restoreQuarantined() == nil)
        #expect(try Persistence.none.quarantinedFile() == nil)
    }
}
