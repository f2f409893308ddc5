import Foundation
import Observation
import Storage
import Testing

@Suite("Observing a Persisted value")
struct PersistedObservationTests {
    @Test("current is readable without await and a reader is told once per saved update")
    func updatesSignal() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let prefs = try await Persisted<SettingsV1>(file: "settings.json", in: store, defaults: SettingsV1())
        let reader = ObservationReader { _ = prefs.current }
        #expect(prefs.current.fontSize == 14)
        try await prefs.update { $0.fontSize = 18 }
        try await prefs.update { $0.theme = "dark" }
        #expect(reader.count == 2)
        #expect(prefs.current == SettingsV1(theme: "dark", fontSize: 18))
        #expect(try store.load(SettingsV1.self, from: "settings.json") == prefs.current)
    }

    @Test("an update whose body throws, or whose save fails, is never signalled and leaves current as it was")
    func failuresDoNotSignal() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store("store")
        let prefs = try await Persisted<SettingsV1>(file: "settings.json", in: store, defaults: SettingsV1())
        let reader = ObservationReader { _ = prefs.current }
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await prefs.update { _ in throw Refused() } }
        // The save cannot happen: a folder stands where the save file's temporary file goes.
        let blocked = temporary.url.appendingPathComponent("store/settings.json")
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
        await #expect(throws: (any Error).self) { try await prefs.update { $0.fontSize = 30 } }
        #expect(reader.count == 0)
        #expect(prefs.current == SettingsV1())
    }

    @Test("a reload that reads another writer's save signals the reader")
    func reloadSignals() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let prefs = try await Persisted<SettingsV1>(file: "settings.json", in: store, defaults: SettingsV1())
        let reader = ObservationReader { _ = prefs.current }
        try store.save(SettingsV1(theme: "sepia", fontSize: 11), as: "settings.json")
        try await prefs.reload()
        #expect(reader.count == 1)
        #expect(prefs.current.theme == "sepia")
    }
}
