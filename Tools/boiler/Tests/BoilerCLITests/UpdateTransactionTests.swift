import Foundation
import Testing

@testable import BoilerCLI

/// The update's journal: before its commit point nothing in the project changes, after it the
/// next `boiler update` finishes the work, and every step of finishing can be repeated. (The
/// SIGKILL test, with a real process, is in the end-to-end tests: UpdateCrashTests.)
@Suite("Update journal")
struct UpdateTransactionTests {
    func changes() -> ProjectChanges {
        var changes = ProjectChanges()
        changes.writes = [
            .init(path: "a.txt", contents: Data("new a\n".utf8)),
            .init(path: "deep/er/b.sh", contents: Data("echo b\n".utf8), mode: 0o755),
        ]
        changes.removals = ["gone.txt"]
        return changes
    }

    @Test("a commit writes, replaces and removes, keeps modes, and leaves no pending folder")
    func commit() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try Data("old a\n".utf8).write(to: temp.url.appendingPathComponent("a.txt"))
        try Data("x".utf8).write(to: temp.url.appendingPathComponent("gone.txt"))
        try UpdateTransaction.commit(changes(), in: temp.url)
        #expect(TemporaryFolder.listing(of: temp.url) == ["a.txt", "deep/er/b.sh"])
        #expect(try String(contentsOf: temp.url.appendingPathComponent("a.txt"), encoding: .utf8) == "new a\n")
        let mode =
            try FileManager.default.attributesOfItem(atPath: temp.url.appendingPathComponent("deep/er/b.sh").path)[
                .posixPermissions] as? Int
        #expect(mode == 0o755)
    }

    @Test("files staged without a journal (killed before the commit point) are removed; the project is untouched")
    func stagedOnly() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try Data("old a\n".utf8).write(to: temp.url.appendingPathComponent("a.txt"))
        let staged = temp.url.appendingPathComponent(UpdateTransaction.pendingFolder + "/files")
        try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
        try Data("new a\n".utf8).write(to: staged.appendingPathComponent("0"))
        #expect(try UpdateTransaction.finishPending(in: temp.url) == false)
        #expect(TemporaryFolder.listing(of: temp.url) == ["a.txt"])
        #expect(try String(contentsOf: temp.url.appendingPathComponent("a.txt"), encoding: .utf8) == "old a\n")
    }

    @Test("a committed journal whose moves were half done is finished, and finishing twice is harmless")
    func halfDone() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try Data("old a\n".utf8).write(to: temp.url.appendingPathComponent("a.txt"))
        try Data("x".utf8).write(to: temp.url.appendingPathComponent("gone.txt"))
        // As if killed after the first move: a.txt is new, b.sh still staged, gone.txt still there.
        let pending = temp.url.appendingPathComponent(UpdateTransaction.pendingFolder)
        try FileManager.default.createDirectory(
            at: pending.appendingPathComponent("files"), withIntermediateDirectories: true)
        try Data("new a\n".utf8).write(to: temp.url.appendingPathComponent("a.txt"))
        try Data("echo b\n".utf8).write(to: pending.appendingPathComponent("files/1"))
        try Data(
            #"{"writes":[{"path":"a.txt","staged":"files/0"},{"path":"deep/er/b.sh","staged":"files/1"}],"removals":["gone.txt"]}"#
                .utf8
        ).write(to: UpdateTransaction.journal(in: temp.url))
        // Until it is finished, the record cannot be read: the project is half old, half new.
        #expect(throws: BoilerError.updateInterrupted(folder: temp.url.path)) { try ProjectRecord.read(in: temp.url) }
        #expect(try UpdateTransaction.finishPending(in: temp.url))
        #expect(TemporaryFolder.listing(of: temp.url) == ["a.txt", "deep/er/b.sh"])
        #expect(try UpdateTransaction.finishPending(in: temp.url) == false)
        #expect(TemporaryFolder.listing(of: temp.url) == ["a.txt", "deep/er/b.sh"])
    }
}
