import Foundation
import Storage
import Testing

/// A key is checked as the file system reads it: byte by byte. Swift compares `String`s by
/// `Character`, and a combining mark joins the character before it, so `"/\u{301}"` is one
/// `Character` that is not `"/"` — yet the file system sees a `/` byte there and splits the
/// path. A key like `"../\u{301}x"` must therefore be refused as the `..` it is to the file
/// system, not passed as one harmless-looking name.
@Suite("Keys, byte by byte")
struct KeyBytesTests {
    static let hostileKeys = [
        "../\u{301}escape.json",  // ".." then a slash carrying a combining mark
        "a/../../\u{301}escape.json",
        "./\u{301}escape.json",
        "a//\u{301}escape.json",  // an empty component hidden the same way
        "/\u{301}escape.json",  // absolute, to the file system
        "a/\u{301}\\b.json",
        ".~\u{301}x.json.lock",  // starts with the store's reserved ".~" bytes
        "a/\u{338}/..",
    ]

    @Test("a slash that carries a combining mark still separates components", arguments: hostileKeys)
    func combiningMarkDoesNotHideASeparator(_ key: String) throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store("store")
        let outside = temporary.allFiles()
        let error = #expect(throws: StorageError.self) { try store.save(SettingsV1(), as: key) }
        guard case .invalidKey = error else {
            let scalars = key.unicodeScalars.map { String($0.value, radix: 16) }
            Issue.record("expected invalidKey for \(scalars), got \(String(describing: error))")
            return
        }
        #expect(throws: StorageError.self) { try store.load(SettingsV1.self, from: key) }
        #expect(throws: StorageError.self) { try store.remove(key) }
        #expect(!store.exists(key))
        #expect(temporary.allFiles() == outside, "a file was written: \(temporary.allFiles())")
    }

    @Test("combining marks inside names are fine, and the file has exactly the key's bytes")
    func combiningMarksInNames() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        for key in ["cafe\u{301}.json", "notes/\u{301}a.json", "e\u{301}/b.json", "x/.\u{301}.json"] {
            try store.save(SettingsV1(theme: key), as: key)
            #expect(try store.load(SettingsV1.self, from: key).theme == key)
            #expect(try store.list().contains(key), "\(key) is not listed")
        }
    }

    @Test("the store's own files of a name that starts with a combining mark are recognised as its own")
    func ownFilesOfACombiningMarkName() throws {
        let temporary = try TemporaryFolder()
        let name = "\u{301}x.json"
        try temporary.write("{}", to: name)
        // pid 2^22+1 is above Linux's pid_max and macOS's: a dead process's half-written save.
        try temporary.write("partial", to: ".~\(name).4194305.12345.tmp")
        let store = try temporary.store()
        // Not `allFiles()`: FileManager's enumerator, which strips the folder's path by
        // `Character`, gives such a name back as a full path.
        let names = { try FileManager.default.contentsOfDirectory(atPath: temporary.url.path).sorted() }
        #expect(try names() == [name], "the dead process's temporary file was kept")
        try temporary.write("in progress", to: ".~\(name).\(ProcessInfo.processInfo.processIdentifier).1.tmp")
        #expect(try store.list() == [name])
        try store.save(SettingsV1(theme: "after"), as: name)
        #expect(try store.load(SettingsV1.self, from: name).theme == "after")
    }
}
