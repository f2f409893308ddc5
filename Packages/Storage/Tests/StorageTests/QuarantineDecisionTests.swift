import Foundation
import Storage
import Testing

/// A file moved aside as corrupt is not forgotten: until the app restores it or starts fresh,
/// every launch throws the same `corrupt` error naming the moved file, instead of starting from
/// defaults as if nothing had been saved.
@Suite("Quarantine awaits a decision")
struct QuarantineDecisionTests {
    static let damaged = #"{"theme": "dark", "fontSi"#

    /// The moved file of a `corrupt` error, or nil (recording an issue) for any other error.
    static func movedFile(_ error: StorageError?) -> URL? {
        guard case .corrupt(_, let moved?, _) = error else {
            Issue.record("expected corrupt with a moved file, got \(String(describing: error))")
            return nil
        }
        return moved
    }

    static func launch(_ store: FileStore) async throws -> Persisted<SettingsV1> {
        try await Persisted<SettingsV1>(file: "settings.json", in: store, defaults: SettingsV1())
    }

    @Test("every later launch of Persisted throws the same error, naming the moved file")
    func everyLaunchThrows() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try temporary.write(Self.damaged, to: "settings.json")
        let first = await #expect(throws: StorageError.self) { _ = try await Self.launch(store) }
        let moved = try #require(Self.movedFile(first))
        for _ in 0..<3 {
            let again = await #expect(throws: StorageError.self) { _ = try await Self.launch(store) }
            #expect(Self.movedFile(again) == moved)
            #expect(again?.message == first?.message)
            #expect(String(describing: again?.underlyingError) == String(describing: first?.underlyingError))
        }
        #expect(try store.quarantinedFile(for: "settings.json") == moved)
        #expect(try temporary.read(moved.lastPathComponent) == Self.damaged)
        #expect(!store.exists("settings.json"))
    }

    @Test("a load that finds no file, and loadIfPresent, throw it too instead of 'nothing saved'")
    func loadsThrow() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try temporary.write(Self.damaged, to: "settings.json")
        let first = #expect(throws: StorageError.self) { try store.load(SettingsV1.self, from: "settings.json") }
        let moved = try #require(Self.movedFile(first))
        let again = #expect(throws: StorageError.self) { try store.load(SettingsV1.self, from: "settings.json") }
        #expect(Self.movedFile(again) == moved)
        let present = #expect(throws: StorageError.self) {
            try store.loadIfPresent(SettingsV1.self, from: "settings.json")
        }
        #expect(Self.movedFile(present) == moved)
        try store.startFresh("settings.json")
        #expect(try store.loadIfPresent(SettingsV1.self, from: "settings.json") == nil)
        #expect(try store.loadIfPresent(SettingsV1.self, from: "other.json") == nil)
    }

    @Test("startFresh keeps the moved file, renamed .kept, and the next launch starts from defaults")
    func startFresh() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try temporary.write(Self.damaged, to: "settings.json")
        let error = await #expect(throws: StorageError.self) { _ = try await Self.launch(store) }
        let moved = try #require(Self.movedFile(error))
        let kept = try store.startFresh("settings.json")
        #expect(kept.map(\.lastPathComponent) == [moved.lastPathComponent + ".kept"])
        #expect(try temporary.read(moved.lastPathComponent + ".kept") == Self.damaged)
        #expect(try store.quarantinedFile(for: "settings.json") == nil)
        let fresh = try await Self.launch(store)
        #expect(await fresh.value == SettingsV1())
        try await fresh.update { $0.theme = "new" }
        #expect(try temporary.read(moved.lastPathComponent + ".kept") == Self.damaged)
        #expect(try store.startFresh("settings.json").isEmpty)
    }

    @Test("restoreQuarantined puts the moved file back, byte for byte, and refuses to replace a file")
    func restore() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let wrongType = #"{"theme": 42, "fontSize": 14}"#
        try temporary.write(wrongType, to: "settings.json")
        let error = await #expect(throws: StorageError.self) { _ = try await Self.launch(store) }
        let moved = try #require(Self.movedFile(error))

        try store.save(SettingsV1(theme: "saved since"), as: "settings.json")
        let refused = #expect(throws: StorageError.self) { try store.restoreQuarantined("settings.json") }
        guard case .unwritable(_, let underlying) = refused else {
            Issue.record("expected unwritable, got \(String(describing: refused))")
            return
        }
        #expect((underlying as? POSIXError)?.code == .EEXIST)
        #expect(try store.load(SettingsV1.self, from: "settings.json").theme == "saved since")
        // Still undecided: a Persisted launch refuses even though a file is stored again.
        await #expect(throws: StorageError.self) { _ = try await Self.launch(store) }

        try store.remove("settings.json")
        #expect(try store.restoreQuarantined("settings.json") == store.url(for: "settings.json"))
        #expect(try temporary.read("settings.json") == wrongType)
        #expect(!FileManager.default.fileExists(atPath: moved.path))
        #expect(try store.quarantinedFile(for: "settings.json") == nil)
        #expect(throws: StorageError.self) { try store.restoreQuarantined("settings.json") }
    }

    @Test("a running Persisted whose file another writer damaged refuses every later update")
    func runningInstance() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let persisted = try await Self.launch(store)
        try await persisted.update { $0.theme = "mine" }
        try temporary.write(Self.damaged, to: "settings.json")
        let first = await #expect(throws: StorageError.self) { try await persisted.update { $0.fontSize = 1 } }
        let moved = try #require(Self.movedFile(first))
        let second = await #expect(throws: StorageError.self) { try await persisted.update { $0.fontSize = 2 } }
        #expect(Self.movedFile(second) == moved)
        #expect(!store.exists("settings.json"))
        #expect(try temporary.read(moved.lastPathComponent) == Self.damaged)
    }

    @Test("when the moved file decodes now (an update learned to read it), launches still wait for a decision")
    func decodesNow() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try temporary.write(Self.damaged, to: "settings.json")
        let first = await #expect(throws: StorageError.self) { _ = try await Self.launch(store) }
        let moved = try #require(Self.movedFile(first))
        try JSONEncoder().encode(SettingsV1(theme: "readable")).write(to: moved)
        let again = await #expect(throws: StorageError.self) { _ = try await Self.launch(store) }
        #expect(Self.movedFile(again) == moved)
        #expect((again?.underlyingError as? UndecidedQuarantine)?.movedTo == moved)
        try store.restoreQuarantined("settings.json")
        #expect(await (try Self.launch(store)).value.theme == "readable")
    }

    @Test("a record collection whose file was moved aside refuses reads and writes until the app decides")
    func records() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try temporary.write(Self.damaged, to: "notes.json")
        let notes = try RecordStore<Note>(file: "notes.json", in: store)
        let first = await #expect(throws: StorageError.self) { _ = try await notes.fetchAll() }
        let moved = try #require(Self.movedFile(first))
        let again = await #expect(throws: StorageError.self) { try await notes.insert(Note(id: 1, title: "new")) }
        #expect(Self.movedFile(again) == moved)
        #expect(!store.exists("notes.json"))
        try store.startFresh("notes.json")
        try await notes.insert(Note(id: 1, title: "new"))
        #expect(try await notes.count() == 1)
    }
}
