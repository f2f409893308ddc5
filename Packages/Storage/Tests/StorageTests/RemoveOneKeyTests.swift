import Foundation
import Storage
import Testing

/// `remove` deletes one key's file and nothing else: never a folder and the keys under it.
@Suite("remove removes one key")
struct RemoveOneKeyTests {
    @Test("remove of a folder's name keeps the folder and every key under it")
    func folderIsKept() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try store.save(SettingsV1(theme: "a"), as: "notes/a.json")
        try store.save(SettingsV1(theme: "b"), as: "notes/2024/b.json")
        #expect(!store.exists("notes"))
        try store.remove("notes")
        #expect(try store.list() == ["notes/2024/b.json", "notes/a.json"])
        #expect(try store.load(SettingsV1.self, from: "notes/a.json").theme == "a")
    }

    @Test("remove deletes the key's file, and a missing key is not an error")
    func fileIsRemoved() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try store.save(data: Data("{}".utf8), as: "notes")
        try store.save(SettingsV1(), as: "other.json")
        try store.remove("notes")
        #expect(!store.exists("notes"))
        try store.remove("notes")
        try store.remove("missing/deeper.json")
        #expect(try store.list() == ["other.json"])
    }

    @Test("remove of a symlinked key deletes the link, not the file it points to")
    func symlinkIsRemoved() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store("store")
        try temporary.write("{}", to: "target.json")
        try FileManager.default.createSymbolicLink(
            at: store.url(for: "linked.json"), withDestinationURL: temporary.url.appendingPathComponent("target.json"))
        try store.remove("linked.json")
        #expect(!store.exists("linked.json"))
        #expect(try temporary.read("target.json") == "{}")
    }
}
