import Foundation
import Serialization
import Storage
import Testing

@Suite("Persisted")
struct PersistedTests {
    @Test("starts from the bundled defaults when there is no save file, and writes nothing")
    func defaultsFile() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store("store")
        try temporary.write(#"{"theme": "sepia", "fontSize": 12}"#, to: "defaults.json")
        let prefs = try await Persisted<SettingsV1>(
            file: "settings.json", in: store, defaults: temporary.url.appendingPathComponent("defaults.json"))
        #expect(await prefs.value == SettingsV1(theme: "sepia", fontSize: 12))
        #expect(!store.exists("settings.json"))
    }

    @Test("adds keys new in an app update from the defaults while saved values win, recursively")
    func mergesDefaults() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try temporary.write(#"{"theme": "dark", "fontSize": 20, "sync": {"enabled": true}}"#, to: "settings.json")
        let prefs = try await Persisted<SettingsV2>(file: "settings.json", in: store, defaults: SettingsV2())
        let expected = SettingsV2(theme: "dark", fontSize: 20, language: "en", sync: .init(enabled: true, interval: 60))
        #expect(await prefs.value == expected)
    }

    @Test("lets a Mergeable value decide the merge")
    func mergeable() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try temporary.write(#"{"server": "http://old", "name": "Ana"}"#, to: "account.json")
        let prefs = try await Persisted<Account>(
            file: "account.json", in: store, defaults: Account(server: "https://new", name: ""))
        #expect(await prefs.value == Account(server: "https://new", name: "Ana"))
    }

    @Test("saves before update returns, atomically, and returns the body's result")
    func updateSaves() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let prefs = try await Persisted<SettingsV1>(file: "settings.json", in: store, defaults: SettingsV1())
        let old = try await prefs.update { settings -> Int in
            defer { settings.fontSize = 20 }
            return settings.fontSize
        }
        #expect(old == 14)
        #expect(try store.load(SettingsV1.self, from: "settings.json").fontSize == 20)
        #expect(temporary.allFiles().allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test("keeps value and file unchanged when the body throws")
    func updateThrows() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let prefs = try await Persisted<SettingsV1>(file: "settings.json", in: store, defaults: SettingsV1())
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await prefs.update {
                $0.theme = "dark"
                throw Refused()
            }
        }
        #expect(await prefs.value.theme == "light")
        #expect(!store.exists("settings.json"))
    }

    @Test("sees another writer's save on reload and before its next update")
    func seesOtherWriters() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let first = try await Persisted<SettingsV1>(file: "settings.json", in: store, defaults: SettingsV1())
        let second = try await Persisted<SettingsV1>(file: "settings.json", in: store, defaults: SettingsV1())
        try await first.update { $0.theme = "dark" }
        try await second.update { $0.fontSize = 30 }
        #expect(await second.value == SettingsV1(theme: "dark", fontSize: 30))
        try await first.reload()
        #expect(await first.value == SettingsV1(theme: "dark", fontSize: 30))
    }

    @Test("publishes every update and reload on its change stream")
    func changes() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let prefs = try await Persisted<SettingsV1>(file: "settings.json", in: store, defaults: SettingsV1())
        let stream = prefs.changes
        try await prefs.update { $0.fontSize = 15 }
        try await prefs.update { $0.fontSize = 16 }
        try store.save(SettingsV1(theme: "x", fontSize: 17), as: "settings.json")
        try await prefs.reload()
        var seen: [Int] = []
        for await value in stream {
            seen.append(value.fontSize)
            if seen.count == 3 { break }
        }
        #expect(seen == [15, 16, 17])
    }

    @Test("moves a damaged save file aside, throws, and never writes defaults over it")
    func corruptSaveFile() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try temporary.write(#"{"theme": "dark", "fontSi"#, to: "settings.json")
        let error = await #expect(throws: StorageError.self) {
            try await Persisted<SettingsV1>(file: "settings.json", in: store, defaults: SettingsV1())
        }
        guard case .corrupt(_, let movedTo?, _) = error else {
            Issue.record("expected corrupt with a moved-aside file, got \(String(describing: error))")
            return
        }
        #expect(try temporary.read(movedTo.lastPathComponent) == #"{"theme": "dark", "fontSi"#)
        #expect(!store.exists("settings.json"))
        // The app may now start over from defaults; the damaged file stays for recovery.
        try store.startFresh("settings.json")
        let fresh = try await Persisted<SettingsV1>(file: "settings.json", in: store, defaults: SettingsV1())
        try await fresh.update { $0.fontSize = 15 }
        #expect(try temporary.read(movedTo.lastPathComponent + ".kept") == #"{"theme": "dark", "fontSi"#)
    }

    @Test("refuses a save file from a newer app version and leaves it untouched")
    func newerVersion() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let newer = #"{"model_version": 4, "title": "Acme", "founded": 1990, "employees": 3}"#
        try temporary.write(newer, to: "company.json")
        let error = await #expect(throws: StorageError.self) {
            try await Persisted<Company>(file: "company.json", in: store, defaults: Company(title: "", founded: 0))
        }
        guard case .newerVersion = error else {
            Issue.record("expected newerVersion, got \(String(describing: error))")
            return
        }
        #expect(try temporary.read("company.json") == newer)
    }

    @Test("migrates an old save file before merging defaults, and saves the current version")
    func migrates() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try temporary.write(#"{"model_version": 1, "name": "Acme"}"#, to: "company.json")
        let company = try await Persisted<Company>(
            file: "company.json", in: store, defaults: Company(title: "Unnamed", founded: 2000))
        #expect(await company.value == Company(title: "Acme", founded: 1990))
        try await company.update { $0.founded = 1991 }
        let saved = try Serializer(.json).tree(from: try store.data(at: "company.json"))
        #expect(saved["model_version"] == .int(3))
    }

    @Test("throws noDefaults without a save file or defaults")
    func noDefaults() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let error = await #expect(throws: StorageError.self) {
            try await Persisted<SettingsV1>(file: "settings.json", in: store, defaults: nil as URL?)
        }
        guard case .noDefaults = error else {
            Issue.record("expected noDefaults, got \(String(describing: error))")
            return
        }
    }

    @Test("ends 8 tasks × 1 000 concurrent updates with every one counted")
    func concurrentUpdates() async throws {
        let temporary = try TemporaryFolder()
        // fsync is about power loss, not ordering; skip it to keep 8 000 saves quick.
        let store = try temporary.store(durability: .none)
        let counter = try await Persisted<Tally>(file: "tally.json", in: store, defaults: Tally())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for _ in 0..<1_000 { try await counter.update { $0.counts[task] += 1 } }
                }
            }
            try await group.waitForAll()
        }
        #expect(await counter.value.counts == Array(repeating: 1_000, count: 8))
        #expect(try store.load(Tally.self, from: "tally.json").counts == Array(repeating: 1_000, count: 8))
    }
}

/// Per-task counters for the stress test.
struct Tally: Codable, Sendable {
    var counts = Array(repeating: 0, count: 8)
}

/// A value whose server always comes from the defaults.
struct Account: Codable, Equatable, Sendable, Mergeable {
    var server: String
    var name: String

    static func merge(saved: KeyValue, defaults: KeyValue) -> KeyValue {
        var merged = KeyLevelMerge.merge(saved: saved, defaults: defaults)
        merged["server"] = defaults["server"]
        return merged
    }
}
