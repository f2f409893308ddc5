import Foundation
import Storage
import Testing

@Suite("Keys")
struct KeyValidationTests {
    static let badKeys = [
        "", "/etc/passwd", "~/x.json", "../escape.json", "a/../../escape.json", "a/./b.json", "a//b.json",
        "a/", "nul\0.json", ".~settings.json.lock", "back\\slash.json",
        "a/" + String(repeating: "x", count: 300) + "/b.json",
    ]

    @Test("that could leave the folder or are malformed are rejected before anything is touched", arguments: badKeys)
    func badKey(_ key: String) throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store("store")
        let before = temporary.allFiles()
        let error = #expect(throws: StorageError.self) { try store.save(SettingsV1(), as: key) }
        guard case .invalidKey = error else {
            Issue.record("expected invalidKey, got \(String(describing: error))")
            return
        }
        #expect(throws: StorageError.self) { try store.load(SettingsV1.self, from: key) }
        #expect(throws: StorageError.self) { try store.remove(key) }
        #expect(!store.exists(key))
        #expect(temporary.allFiles() == before)
        #expect(
            !FileManager.default.fileExists(
                atPath: temporary.url.deletingLastPathComponent().appendingPathComponent("escape.json").path))
    }

    @Test("name the key and the reason in the message")
    func message() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        do {
            try store.save(SettingsV1(), as: "../x.json")
            Issue.record("saved outside the folder")
        } catch {
            #expect(error.message.contains("../x.json"))
            #expect(error.message.contains(".."))
        }
    }

    @Test("with folders are fine and create the folders")
    func nestedKey() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try store.save(SettingsV1(), as: "a/b/c.json")
        #expect(try store.load(SettingsV1.self, from: "a/b/c.json") == SettingsV1())
    }
}
