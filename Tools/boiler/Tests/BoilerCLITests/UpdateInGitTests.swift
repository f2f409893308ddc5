import Foundation
import Testing

@testable import BoilerCLI

/// `boiler update` in a git repository: uncommitted changes stop it unless `--force`, so that the
/// update can be reviewed as one diff; git keeps the old files, so no backup is written.
@Suite("boiler update in a git repository", .enabled(if: GitMergeFile.isAvailable))
struct UpdateInGitTests {
    func git(_ arguments: [String], in folder: URL) throws {
        try Shell.run(["git", "-c", "user.name=Test", "-c", "user.email=test@example.com"] + arguments, in: folder)
    }

    func committedProject() throws -> UpdateTestProject {
        let project = try UpdateTestProject()
        try project.makeOlder("Sources/Notes/main.swift") { "// older\n" + $0 }
        try git(["init", "-q"], in: project.folder)
        try git(["add", "-A"], in: project.folder)
        try git(["commit", "-q", "-m", "made by boiler 0.0.9"], in: project.folder)
        return project
    }

    @Test("uncommitted changes stop the update, naming them; nothing is written")
    func dirtyStops() throws {
        let project = try committedProject()
        defer { project.remove() }
        try project.write("README.md", try project.text("README.md") + "Uncommitted.\n")
        try project.write("notes.txt", "untracked\n")
        let before = project.snapshot()
        do {
            try project.update()
            Issue.record("the update ran")
        } catch {
            guard case .uncommittedChanges(_, let paths) = error else {
                Issue.record("expected uncommittedChanges, got \(error)")
                return
            }
            #expect(paths.sorted() == ["README.md", "notes.txt"])
            #expect(error.exitCode == 73)
        }
        #expect(project.snapshot() == before)
    }

    @Test("--force updates anyway, keeping the uncommitted change")
    func forceGoesAhead() throws {
        let project = try committedProject()
        defer { project.remove() }
        let readme = try project.text("README.md") + "Uncommitted.\n"
        try project.write("README.md", readme)
        try project.update(force: true)
        #expect(try !project.text("Sources/Notes/main.swift").hasPrefix("// older"))
        #expect(try project.text("README.md") == readme)
    }

    @Test("a clean repository is updated with no backup: git has the old files")
    func cleanUpdates() throws {
        let project = try committedProject()
        defer { project.remove() }
        try project.update()
        #expect(try !project.text("Sources/Notes/main.swift").hasPrefix("// older"))
        #expect(!project.exists(".boiler/backup"))
        #expect(!project.exists(UpdateTransaction.pendingFolder))
    }
}
