import Foundation
import Storage
import Testing

/// A save replaces a key's contents, not the file's other properties: it keeps the existing
/// file's permissions, and a symlinked key is written through to its target (atomically, in
/// the target's folder) so the link stays a link.
@Suite("File mode and symlinks")
struct FileModeAndSymlinkTests {
    static func mode(_ url: URL) throws -> Int {
        try ((FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue)
            .orThrow()
    }

    static func setMode(_ mode: Int, _ url: URL) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
    }

    @Test("a save keeps the existing file's mode", arguments: [0o600, 0o664, 0o640, 0o755, 0o444, 0o4755])
    func modeIsKept(_ mode: Int) async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try store.save(SettingsV1(), as: "settings.json")
        let url = try store.url(for: "settings.json")
        try Self.setMode(mode, url)
        try store.save(SettingsV1(theme: "dark"), as: "settings.json")
        #expect(try Self.mode(url) == mode)
        try store.save(data: Data("{}".utf8), as: "settings.json")
        #expect(try Self.mode(url) == mode)
        let persisted = try await Persisted(file: "settings.json", in: store, defaults: SettingsV1())
        try await persisted.update { $0.fontSize = 9 }
        #expect(try Self.mode(url) == mode)
    }

    @Test("a new file gets the usual mode")
    func newFileMode() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try store.save(SettingsV1(), as: "settings.json")
        let mode = try Self.mode(store.url(for: "settings.json"))
        #expect(mode & 0o600 == 0o600)
        #expect(mode & 0o111 == 0)
    }

    @Test("a symlinked key is written through to its target, which keeps its mode, and the link stays")
    func symlinkIsWrittenThrough() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store("store")
        let targets = temporary.url.appendingPathComponent("dotfiles", isDirectory: true)
        try FileManager.default.createDirectory(at: targets, withIntermediateDirectories: true)
        let target = targets.appendingPathComponent("settings.json")
        try JSONEncoder().encode(SettingsV1()).write(to: target)
        try Self.setMode(0o600, target)
        let link = try store.url(for: "settings.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../dotfiles/settings.json")

        try store.save(SettingsV1(theme: "through"), as: "settings.json")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "../dotfiles/settings.json")
        #expect(try JSONDecoder().decode(SettingsV1.self, from: Data(contentsOf: target)).theme == "through")
        #expect(try Self.mode(target) == 0o600)
        let persisted = try await Persisted(file: "settings.json", in: store, defaults: SettingsV1())
        try await persisted.update { $0.fontSize = 30 }
        #expect(try JSONDecoder().decode(SettingsV1.self, from: Data(contentsOf: target)).fontSize == 30)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "../dotfiles/settings.json")
        #expect(temporary.allFiles().filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test("a chain of links is followed to the last target")
    func chainIsFollowed() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try temporary.write("{}", to: "real.json")
        let fileManager = FileManager.default
        try fileManager.createSymbolicLink(
            atPath: temporary.url.appendingPathComponent("middle.json").path, withDestinationPath: "real.json")
        try fileManager.createSymbolicLink(
            atPath: temporary.url.appendingPathComponent("first.json").path,
            withDestinationPath: temporary.url.appendingPathComponent("middle.json").path)
        try store.save(SettingsV1(theme: "chain"), as: "first.json")
        #expect(try store.load(SettingsV1.self, from: "real.json").theme == "chain")
        #expect(
            try fileManager.destinationOfSymbolicLink(atPath: temporary.url.appendingPathComponent("first.json").path)
                == temporary.url.appendingPathComponent("middle.json").path)
        #expect(
            try fileManager.destinationOfSymbolicLink(atPath: temporary.url.appendingPathComponent("middle.json").path)
                == "real.json")
    }

    @Test("a dangling link is written through: the save creates its target")
    func danglingLinkCreatesTarget() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try FileManager.default.createSymbolicLink(
            atPath: temporary.url.appendingPathComponent("link.json").path, withDestinationPath: "made.json")
        try store.save(SettingsV1(theme: "made"), as: "link.json")
        #expect(try store.load(SettingsV1.self, from: "made.json").theme == "made")
        #expect(try store.load(SettingsV1.self, from: "link.json").theme == "made")
    }

    @Test("a loop of links fails the save with a typed error and changes nothing")
    func loopFails() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let fileManager = FileManager.default
        try fileManager.createSymbolicLink(
            atPath: temporary.url.appendingPathComponent("a.json").path, withDestinationPath: "b.json")
        try fileManager.createSymbolicLink(
            atPath: temporary.url.appendingPathComponent("b.json").path, withDestinationPath: "a.json")
        let error = #expect(throws: StorageError.self) { try store.save(SettingsV1(), as: "a.json") }
        guard case .unwritable = error else {
            Issue.record("expected unwritable, got \(String(describing: error))")
            return
        }
        #expect(
            try fileManager.destinationOfSymbolicLink(atPath: temporary.url.appendingPathComponent("a.json").path)
                == "b.json")
        #expect(temporary.allFiles() == ["a.json", "b.json"])
    }
}
