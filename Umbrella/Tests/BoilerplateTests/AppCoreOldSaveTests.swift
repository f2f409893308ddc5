import Foundation
import Testing

@testable import Boilerplate

/// Adds an entry to the diary: the change that makes AppCore save its model file.
struct AddDiaryEntry: Command {
    var entry: DiaryEntry
    func execute(_ model: inout Diary) throws { model.entries.append(entry) }
}

/// AppCore's model file, saved by older versions of an app, loads through ModelGen's generated
/// chain. `Diary` and `DiaryEntry` are ModelGen's real output for a three-version design
/// (Generated/, kept identical to ModelGen's output by ModelGen's `StoredDiaryModelTests`); the
/// old files are written as raw bytes, as the old app saved them.
@Suite("AppCore: a model file saved by an older version loads through the generated migrations")
struct AppCoreOldSaveTests {
    let empty = Diary(title: "")

    /// The model file of `folder`, written as an older app wrote it.
    func writeModelFile(_ text: String, in folder: AppFolder) throws -> URL {
        let file = folder.url.appendingPathComponent("notes.json")
        try Data(text.utf8).write(to: file)
        return file
    }

    @Test("a file saved by v1 loads as v3 (renames in the model and its entries, the hook) and is saved as v3")
    func v1FileLoads() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        let file = try writeModelFile(
            ##"""
            {"name":"Trip","model_version":1,"entries":[
              {"id":1,"text":"Low tide","color":"#ff0000","views":12,"rating":3.6,"model_version":1},
              {"id":2,"text":"Fog","views":-3,"rating":0,"model_version":1}]}
            """##, in: folder)
        let app = try await AppCore(model: empty, persistence: folder.persistence)
        let expected = Diary(
            title: "Trip",
            entries: [
                DiaryEntry(id: 1, text: "Low tide", hexColor: "#ff0000", views: 12, rating: 4, pinned: false),
                DiaryEntry(id: 2, text: "Fog", hexColor: nil, views: -3, rating: 0, pinned: false),
            ])
        #expect(app.model == expected)
        let added = DiaryEntry(id: 3, text: "Sun", mood: "bright")
        try await app.run(AddDiaryEntry(entry: added))
        let saved = try Serializer(.json).tree(from: Data(contentsOf: file))
        #expect(saved["model_version"] == .int(3) && saved["name"] == nil && saved["title"] == .string("Trip"))
        #expect(saved["entries"]?.arrayValue?.map { $0["model_version"] } == [.int(3), .int(3), .int(3)])
        // The next launch reads the v3 file as it is.
        let relaunched = try await AppCore(model: empty, persistence: folder.persistence)
        #expect(relaunched.model.entries == expected.entries + [added])
    }

    @Test("a file saved by v2 loads as v3")
    func v2FileLoads() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        _ = try writeModelFile(
            ##"""
            {"title":"Trip","model_version":2,"entries":[
              {"id":1,"text":"Low tide","hexColor":"#ff0000","views":70000,"rating":2,"pinned":true,"model_version":2}]}
            """##, in: folder)
        let app = try await AppCore(model: empty, persistence: folder.persistence)
        #expect(
            app.model
                == Diary(
                    title: "Trip",
                    entries: [
                        DiaryEntry(
                            id: 1, text: "Low tide", hexColor: "#ff0000", views: 70000, rating: 2, pinned: true,
                            mood: "calm")
                    ]))
    }

    /// Launches the app on `text` as its model file, and returns the load error's cause; the
    /// file must keep its bytes and nothing may be moved aside.
    func refusedLoad(_ text: String) async throws -> StorageError? {
        let folder = try AppFolder()
        defer { folder.remove() }
        let file = try writeModelFile(text, in: folder)
        var cause: StorageError?
        do {
            _ = try await AppCore(model: empty, persistence: folder.persistence)
            Issue.record("the load should have failed")
        } catch let error as AppCoreError {
            guard case .loadFailed(let name, let underlying) = error else {
                Issue.record("expected loadFailed, got \(error)")
                return nil
            }
            #expect(name == "notes.json")
            cause = underlying as? StorageError
        }
        #expect(try Data(contentsOf: file) == Data(text.utf8))
        #expect(try folder.persistence.quarantinedFile() == nil)
        return cause
    }

    @Test("a file saved by a newer version is refused and left as it was")
    func newerFileRefused() async throws {
        let cause = try await refusedLoad(#"{"title":"Later","entries":[],"model_version":4}"#)
        guard case .newerVersion? = cause else {
            Issue.record("expected newerVersion, got \(String(describing: cause))")
            return
        }
    }

    @Test("a step that fails (the hook refuses an entry's rating) names the step and changes nothing on disk")
    func failedStepChangesNothing() async throws {
        let cause = try await refusedLoad(
            #"{"name":"Trip","model_version":1,"entries":[{"id":1,"text":"x","rating":1e9,"model_version":1}]}"#)
        guard case .migrationFailed(_, let underlying)? = cause else {
            Issue.record("expected migrationFailed, got \(String(describing: cause))")
            return
        }
        guard case .migrationFailed(let step, let hookError, let location)? = underlying as? SerializationError else {
            Issue.record("expected the step's error, got \(underlying)")
            return
        }
        #expect(step == "1 → 2 of DiaryEntry")
        #expect(hookError is RatingOutOfRange)
        #expect(location.keyPath.description == "entries[0]")
    }
}
