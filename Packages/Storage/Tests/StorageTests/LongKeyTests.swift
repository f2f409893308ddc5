import Foundation
import Storage
import Testing

/// Every key the store accepts works end to end — save, load, lock, quarantine, Persisted —
/// and a key too long for that is refused up front with a typed error naming it and the limit.
@Suite("Long keys")
struct LongKeyTests {
    /// A file name of exactly `bytes` bytes of UTF-8, ending in `.json`; `é` makes bytes ≠ characters.
    static func name(bytes: Int) -> String {
        let stem = bytes - ".json".utf8.count
        return String(repeating: "é", count: stem / 2) + String(repeating: "x", count: stem % 2) + ".json"
    }

    @Test("the limit is 255 bytes minus room for the store's own file names")
    func limit() {
        #expect(FileStore.maximumKeyNameBytes == 221)
    }

    @Test("a key whose file name is exactly at the limit saves, loads, locks and is quarantined")
    func longestNameWorks() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let key = "notes/" + Self.name(bytes: FileStore.maximumKeyNameBytes)
        #expect(key.split(separator: "/").last?.utf8.count == 221)
        try store.save(SettingsV1(theme: "long"), as: key)
        #expect(try store.load(SettingsV1.self, from: key).theme == "long")
        #expect(try store.list("notes") == [key])
        try store.withLock(key) { try store.save(SettingsV1(theme: "locked"), as: key) }
        let persisted = try await Persisted(file: key, in: store, defaults: SettingsV1())
        try await persisted.update { $0.fontSize = 20 }
        #expect(try store.load(SettingsV1.self, from: key).fontSize == 20)

        try store.save(data: Data("{ damaged".utf8), as: key)
        let error = #expect(throws: StorageError.self) { try store.load(SettingsV1.self, from: key) }
        guard case .corrupt(_, let moved?, _) = error else {
            Issue.record("expected a quarantined file, got \(String(describing: error))")
            return
        }
        #expect(String(decoding: try Data(contentsOf: moved), as: UTF8.self) == "{ damaged")
        #expect(try store.quarantinedFile(for: key) == moved)
        try store.startFresh(key)
        #expect(try store.quarantinedFile(for: key) == nil)
        #expect(temporary.allFiles().contains { $0.hasSuffix(".kept") })
        try store.remove(key)
        #expect(!store.exists(key))
    }

    @Test("a folder component of 255 bytes is fine: the store derives no names from folders")
    func longFolderWorks() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let key = String(repeating: "f", count: 255) + "/a.json"
        try store.save(SettingsV1(theme: "deep"), as: key)
        #expect(try store.load(SettingsV1.self, from: key).theme == "deep")
    }

    @Test("a file name one byte over the limit is refused by every API, naming the key and the limit")
    func tooLongNameIsRefused() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store("store")
        let key = Self.name(bytes: FileStore.maximumKeyNameBytes + 1)
        let before = temporary.allFiles()
        let error = #expect(throws: StorageError.self) { try store.save(SettingsV1(), as: key) }
        guard case .keyTooLong(let named, let limit) = error else {
            Issue.record("expected keyTooLong, got \(String(describing: error))")
            return
        }
        #expect(named == key)
        #expect(limit == 221)
        #expect(error?.message.contains(key) == true)
        #expect(error?.message.contains("221 bytes") == true)
        #expect(throws: StorageError.self) { try store.save(data: Data(), as: key) }
        #expect(throws: StorageError.self) { try store.load(SettingsV1.self, from: key) }
        #expect(throws: StorageError.self) { try store.withLock(key) {} }
        #expect(throws: StorageError.self) { try store.remove(key) }
        await #expect(throws: StorageError.self) {
            _ = try await Persisted(file: key, in: store, defaults: SettingsV1())
        }
        #expect(temporary.allFiles() == before)
    }

    @Test("a key whose whole path would pass the system's path limit is refused up front")
    func tooLongPathIsRefused() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let folders = (0..<20).map { _ in String(repeating: "d", count: 250) }
        let key = folders.joined(separator: "/") + "/a.json"
        let error = #expect(throws: StorageError.self) { try store.save(SettingsV1(), as: key) }
        guard case .keyTooLong(let named, let limit) = error else {
            Issue.record("expected keyTooLong, got \(String(describing: error))")
            return
        }
        #expect(named == key)
        #expect(limit < key.utf8.count)
        #expect(error?.message.contains("\(limit) bytes") == true)
        #expect(temporary.allFiles().isEmpty)
    }
}
