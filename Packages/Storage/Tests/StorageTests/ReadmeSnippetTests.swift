import Foundation
import Storage
import Testing

/// The issue's snippet, unchanged, inside a function; `bundledDefaultsURL` is what it assumes.
@Suite("The README snippet", .serialized)
struct ReadmeSnippetTests {
    @Test("compiles and behaves as written")
    func snippet() async throws {
        let home = try TemporaryFolder()
        let bundledDefaultsURL = home.url.appendingPathComponent("defaults.json")
        try home.write(#"{"theme": "light", "fontSize": 16}"#, to: "defaults.json")
        // Keep the standard folders inside the temporary folder on Linux (XDG).
        setenv("XDG_DATA_HOME", home.url.path, 1)
        defer { unsetenv("XDG_DATA_HOME") }

        // — the snippet —
        struct Settings: Codable, Equatable, Sendable { var theme = "light"; var fontSize = 14 }

        let store = try FileStore(folder: .applicationSupport, app: "com.example.notes")
        try store.save(Settings(), as: "settings.json")  // atomic; format from the extension
        let settings = try store.load(Settings.self, from: "settings.json")
        assert(store.exists("settings.json"))
        try store.remove("settings.json")

        let prefs = try await Persisted<Settings>(
            file: "settings.json", in: store,
            defaults: bundledDefaultsURL)  // BaseModel's sharedInstance
        print(await prefs.value.theme)
        try await prefs.update { $0.theme = "dark" }  // saved atomically before returning
        try await prefs.reload()
        // — end of the snippet —

        #expect(settings == Settings())
        #expect(await prefs.value == Settings(theme: "dark", fontSize: 16))
        #expect(try store.load(Settings.self, from: "settings.json") == Settings(theme: "dark", fontSize: 16))
        #if os(Linux)
            #expect(store.folder.path.hasPrefix(home.url.standardizedFileURL.path))
        #else
            try? FileManager.default.removeItem(at: store.folder)
        #endif
    }
}
