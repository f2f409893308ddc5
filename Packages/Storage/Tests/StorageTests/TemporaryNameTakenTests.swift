import Foundation
import Storage
import Testing

/// A save writes its temporary file under this process's fixed name, `.~<name>.<pid>.0.tmp`,
/// when it is free, and under a random one when it is not: that name belongs to another save of
/// the same key in flight in this process, or to a dead process whose pid was reused. Either
/// way the other file is not touched (not overwritten, not removed), and the save still lands.
@Suite("Temporary name taken")
struct TemporaryNameTakenTests {
    static var fixedName: String { ".~settings.json.\(ProcessInfo.processInfo.processIdentifier).0.tmp" }

    @Test("a save whose fixed temporary name is taken writes under another and leaves that file alone")
    func takenNameIsLeftAlone() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try store.save(SettingsV1(), as: "settings.json")
        // Stands for another save of the key in flight in this process: its half-written file.
        try temporary.write("another save's bytes", to: Self.fixedName)

        try store.save(SettingsV1(theme: "dark"), as: "settings.json")
        try store.save(SettingsV1(theme: "blue", fontSize: 20), as: "settings.json")

        #expect(try store.load(SettingsV1.self, from: "settings.json") == SettingsV1(theme: "blue", fontSize: 20))
        #expect(try temporary.read(Self.fixedName) == "another save's bytes")
        #expect(temporary.allFiles().sorted() == [Self.fixedName, "settings.json"].sorted())
    }

    @Test("a failed save whose fixed temporary name is taken removes only its own temporary file")
    func failedSaveKeepsTheOtherFile() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let taken = ".~blocked.json.\(ProcessInfo.processInfo.processIdentifier).0.tmp"
        try temporary.write("another save's bytes", to: taken)
        // A folder where the file should be: the rename fails, after the temporary file is written.
        try FileManager.default.createDirectory(
            at: temporary.url.appendingPathComponent("blocked.json/inside"), withIntermediateDirectories: true)

        #expect(throws: StorageError.self) { try store.save(SettingsV1(), as: "blocked.json") }

        let temporaries = temporary.allFiles().filter { $0.hasSuffix(".tmp") }
        #expect(temporaries == [taken])
        #expect(try temporary.read(temporaries.first ?? "") == "another save's bytes")
    }

    @Test("saves of one key racing on many threads all land whole, and leave no temporary file")
    func racingSaves() async throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let values = (0..<16).map { SettingsV1(theme: "theme \($0)", fontSize: $0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for value in values {
                group.addTask {
                    for _ in 0..<20 { try store.save(value, as: "settings.json") }
                }
            }
            try await group.waitForAll()
        }
        let saved = try store.load(SettingsV1.self, from: "settings.json")
        #expect(values.contains(saved))
        #expect(temporary.allFiles() == ["settings.json"])
    }
}
