import Foundation
import Serialization
import Storage
import Testing

@Suite("FileStore")
struct FileStoreTests {
    @Test("saves and loads in the format of the extension", arguments: ["settings.json", "settings.plist"])
    func roundTrip(_ key: String) throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let value = SettingsV1(theme: "dark", fontSize: 18)
        try store.save(value, as: key)
        #expect(try store.load(SettingsV1.self, from: key) == value)
        let bytes = try store.data(at: key)
        if key.hasSuffix(".json") {
            #expect(bytes.first == UInt8(ascii: "{"))
        } else {
            #expect(String(decoding: bytes.prefix(5), as: UTF8.self) == "<?xml")
        }
    }

    @Test(
        "files written with backup exclusion and protection asked for are saved and read back; on Apple platforms they carry the flag"
    )
    func fileAttributes() throws {
        let temporary = try TemporaryFolder()
        let attributes = FileAttributes(excludedFromBackup: true, completeProtection: true)
        let store = try FileStore(directory: temporary.url, attributes: attributes)
        #expect(store.attributes == attributes)
        let value = SettingsV1(theme: "dark", fontSize: 18)
        try store.save(value, as: "settings.json")
        #expect(try store.load(SettingsV1.self, from: "settings.json") == value)
        #expect(temporary.allFiles() == ["settings.json"])
        #if canImport(Darwin)
            let url = try store.url(for: "settings.json")
            #expect(try url.resourceValues(forKeys: [.isExcludedFromBackupKey]).isExcludedFromBackup == true)
        #endif
        let plain = try FileStore(directory: temporary.url)
        #expect(plain.attributes == FileAttributes())
        #expect(!plain.attributes.excludedFromBackup && !plain.attributes.completeProtection)
    }

    @Test("uses an explicit serializer over the extension, and reads it back by sniffing")
    func explicitSerializer() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try store.save(SettingsV1(), as: "settings.bin", using: Serializer(.binaryPropertyList))
        #expect(String(decoding: try store.data(at: "settings.bin").prefix(8), as: UTF8.self) == "bplist00")
        #expect(try store.load(SettingsV1.self, from: "settings.bin") == SettingsV1())
    }

    @Test("refuses an unknown extension without a serializer")
    func unknownExtension() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let error = #expect(throws: StorageError.self) { try store.save(SettingsV1(), as: "settings.txt") }
        guard case .unknownFormat = error else {
            Issue.record("expected unknownFormat, got \(String(describing: error))")
            return
        }
    }

    @Test("tells whether a key exists, removes it, and removing twice is fine")
    func existsAndRemove() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        #expect(!store.exists("a.json"))
        try store.save(SettingsV1(), as: "a.json")
        #expect(store.exists("a.json"))
        try store.remove("a.json")
        #expect(!store.exists("a.json"))
        try store.remove("a.json")
    }

    @Test("lists keys recursively, without its own temporary and lock files")
    func list() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try store.save(SettingsV1(), as: "b.json")
        try store.save(SettingsV1(), as: "notes/a.json")
        try store.save(SettingsV1(), as: "notes/2024/c.json")
        _ = try store.withLock("b.json") { 1 }
        #expect(try store.list() == ["b.json", "notes/2024/c.json", "notes/a.json"])
        #expect(try store.list("notes/2024") == ["notes/2024/c.json"])
        #expect(temporary.allFiles().contains(".~b.json.lock"))
    }

    @Test("reports a missing key as notFound")
    func notFound() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let error = #expect(throws: StorageError.self) { try store.load(SettingsV1.self, from: "none.json") }
        guard case .notFound = error else {
            Issue.record("expected notFound, got \(String(describing: error))")
            return
        }
    }

    static let damaged = [
        #"{"theme": "dark", "fontSi"#,  // truncated
        "\u{0}\u{1}\u{2} garbage",  // not JSON
        #"{"theme": 42, "fontSize": 14}"#,  // wrong type
        "",  // empty
    ]

    @Test("moves a file that does not decode aside and never overwrites it", arguments: damaged)
    func corrupt(_ contents: String) throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try temporary.write(contents, to: "settings.json")
        let error = #expect(throws: StorageError.self) { try store.load(SettingsV1.self, from: "settings.json") }
        guard case .corrupt(_, let movedTo, _) = error, let movedTo else {
            Issue.record("expected corrupt with a moved-aside file, got \(String(describing: error))")
            return
        }
        #expect(movedTo.lastPathComponent.hasPrefix("settings.json.corrupt-"))
        #expect(try temporary.read(movedTo.lastPathComponent) == contents)
        #expect(!store.exists("settings.json"))
        #expect(error?.message.contains("settings.json") == true)
    }

    @Test("leaves a damaged file in place when told to")
    func corruptLeft() throws {
        let temporary = try TemporaryFolder()
        var store = try temporary.store()
        store.corruptionPolicy = .leave
        try temporary.write("{", to: "settings.json")
        #expect(throws: StorageError.self) { try store.load(SettingsV1.self, from: "settings.json") }
        #expect(try temporary.read("settings.json") == "{")
    }

    @Test("leaves a file from a newer app version untouched")
    func newerVersion() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let newer = #"{"model_version": 9, "title": "From the future", "founded": 2030}"#
        try temporary.write(newer, to: "company.json")
        let error = #expect(throws: StorageError.self) { try store.load(Company.self, from: "company.json") }
        guard case .newerVersion = error else {
            Issue.record("expected newerVersion, got \(String(describing: error))")
            return
        }
        #expect(try temporary.read("company.json") == newer)
    }

    @Test("migrates Versioned values as it loads them")
    func migrates() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try temporary.write(#"{"model_version": 1, "name": "Acme"}"#, to: "company.json")
        #expect(try store.load(Company.self, from: "company.json") == Company(title: "Acme", founded: 1990))
    }

    @Test("reports an unwritable destination without touching the old file")
    func unwritable() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try store.save(SettingsV1(), as: "settings.json")
        // A folder where the file should be: rename cannot replace it, whoever runs the test.
        try FileManager.default.createDirectory(
            at: temporary.url.appendingPathComponent("blocked.json/inside"), withIntermediateDirectories: true)
        let error = #expect(throws: StorageError.self) { try store.save(SettingsV1(), as: "blocked.json") }
        guard case .unwritable = error else {
            Issue.record("expected unwritable, got \(String(describing: error))")
            return
        }
        #expect(temporary.allFiles().allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test(
        "writes with every durability and leaves no temporary files",
        arguments: [Durability.none, .file, .fileAndFolder])
    func durability(_ durability: Durability) throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store(durability: durability)
        for size in [0, 1, 10_000] {
            try store.save(data: Data(repeating: 7, count: size), as: "blob.bin")
            #expect(try store.data(at: "blob.bin").count == size)
        }
        #expect(temporary.allFiles() == ["blob.bin"])
    }

    @Test("deletes temporary files of dead processes when opened, and keeps live ones")
    func abandonedTemporaries() throws {
        let temporary = try TemporaryFolder()
        // pid 2^22+1 is above Linux's pid_max and macOS's: no such process.
        try temporary.write("partial", to: ".~settings.json.4194305.12345.tmp")
        try temporary.write("in progress", to: ".~settings.json.\(ProcessInfo.processInfo.processIdentifier).1.tmp")
        try temporary.write("user data", to: "notes.tmp")
        _ = try temporary.store()
        #expect(
            temporary.allFiles() == [".~settings.json.\(ProcessInfo.processInfo.processIdentifier).1.tmp", "notes.tmp"])
    }
}

/// The issue 7 example: renamed in version 2, gained a key in version 3.
struct Company: Codable, Equatable, Versioned {
    static let version = 3
    static let migrations = [
        Migration(from: 1) { try $0.rename("name", to: "title") },
        Migration(from: 2) { $0["founded"] = .int(1990) },
    ]
    var title: String
    var founded: Int
}
