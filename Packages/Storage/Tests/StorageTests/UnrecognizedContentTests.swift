import Foundation
import Storage
import Testing

/// `Persisted` fills the keys a save file lacks from the defaults, so a file of a different shape
/// — an old keyed archive, another app's plist — would decode as "all defaults" and be saved over
/// by the next update. Such a file, none of whose keys the model knows, is refused with a typed
/// error and left untouched.
@Suite("Unrecognized content")
struct UnrecognizedContentTests {
    /// What an `NSKeyedArchiver` of an older version of the app left (without any `$null`).
    static func keyedArchive() throws -> Data {
        let archive: [String: Any] = [
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": 1],
            "$objects": ["settings", "dark"],
        ]
        return try PropertyListSerialization.data(fromPropertyList: archive, format: .xml, options: 0)
    }

    static func expectUnrecognized(_ error: StorageError?, file: String) {
        guard case .unrecognized(let url, let keys) = error else {
            Issue.record("expected unrecognized, got \(String(describing: error))")
            return
        }
        #expect(url.lastPathComponent == file)
        #expect(!keys.isEmpty)
        #expect(error?.message.contains(file) == true)
    }

    @Test("an old keyed archive is refused on every launch and never saved over")
    func keyedArchiveIsRefused() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let archive = try Self.keyedArchive()
        try store.save(data: archive, as: "settings.plist")
        for _ in 0..<2 {
            let error = await #expect(throws: StorageError.self) {
                let settings = try await Persisted(file: "settings.plist", in: store, defaults: SettingsV1())
                try await settings.update { $0.theme = "overwritten" }
            }
            Self.expectUnrecognized(error, file: "settings.plist")
        }
        #expect(try store.data(at: "settings.plist") == archive)
        #expect(temporary.allFiles().filter { $0.contains(".corrupt-") }.isEmpty)
    }

    @Test("another app's JSON, arriving while a Persisted runs, fails the update and stays")
    func foreignFileDuringUpdate() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let settings = try await Persisted(file: "settings.json", in: store, defaults: SettingsV2())
        try await settings.update { $0.theme = "mine" }
        let foreign = Data(#"{"windowFrame": "0 0 800 600", "recentFiles": ["a.txt"]}"#.utf8)
        try store.save(data: foreign, as: "settings.json")
        let error = await #expect(throws: StorageError.self) { try await settings.update { $0.fontSize = 20 } }
        Self.expectUnrecognized(error, file: "settings.json")
        #expect(try store.data(at: "settings.json") == foreign)
    }

    @Test("files that share keys with the model, or have none, still load over the defaults")
    func recognizedFilesLoad() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try store.save(data: Data(#"{"theme": "dark", "extra": 1}"#.utf8), as: "partial.json")
        let partial = try await Persisted(file: "partial.json", in: store, defaults: SettingsV2())
        #expect(await partial.value.theme == "dark")
        #expect(await partial.value.language == "en")
        try store.save(data: Data("{}".utf8), as: "empty.json")
        let empty = try await Persisted(file: "empty.json", in: store, defaults: SettingsV2())
        #expect(await empty.value == SettingsV2())
    }

    @Test("a dictionary document whose keys all differ from the defaults' is data, not foreign")
    func dictionaryDocument() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try store.save(["b": 2], as: "counts.json")
        let counts = try await Persisted(file: "counts.json", in: store, defaults: ["a": 1])
        #expect(await counts.value == ["a": 1, "b": 2])
    }
}
