import Commands
import Errors
import Foundation
import _KitSupport

/// A model file in a fresh temporary folder, and save steps that write it, for the tests of
/// the commit path: real files, real failures.
final class SavedFile<Model: Codable & Sendable>: Sendable {
    let folder: URL
    let url: URL
    /// How many saves succeeded.
    let saves = Locked(0)

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("commands-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        url = folder.appendingPathComponent("model.json")
    }

    /// Writes `model` to the file atomically (a temporary file renamed over it).
    func write(_ model: Model) throws {
        try JSONEncoder().encode(model).write(to: url, options: .atomic)
        saves.withLock { $0 += 1 }
    }

    /// A sync save step that writes the file.
    var step: SaveStep<Model> {
        .sync { model in try self.write(model) }
    }

    /// The model in the file, or nil when there is no file.
    func load() throws -> Model? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(Model.self, from: Data(contentsOf: url))
    }

    /// The file's bytes, or nil when there is none.
    var bytes: Data? { try? Data(contentsOf: url) }

    /// Makes every save fail the way a user's disk does: a folder stands where the file goes.
    func blockWithFolder() throws {
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Lets saves succeed again after ``blockWithFolder()``.
    func unblock() throws {
        try FileManager.default.removeItem(at: url)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A save step whose calls the test holds at a gate: the first call waits until the test
/// opens `gate`, so the test can line up commands behind a save in progress.
final class HeldSave<Model: Sendable>: Sendable {
    let gate = Gate()
    /// The models each call was given, in order.
    let calls = Locked<[Model]>([])
    /// Calls from this index on throw `failure`.
    let failFrom: Int?
    let failure = MessageError("The disk is full.")

    init(failFrom: Int? = nil) {
        self.failFrom = failFrom
    }

    var step: SaveStep<Model> {
        .async { model in
            let index = self.calls.withLock { calls in
                calls.append(model)
                return calls.count - 1
            }
            if index == 0 { await self.gate.wait() }
            if let failFrom = self.failFrom, index >= failFrom { throw self.failure }
        }
    }
}
