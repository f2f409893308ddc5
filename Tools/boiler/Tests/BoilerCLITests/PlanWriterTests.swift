import Foundation
import Testing

@testable import BoilerCLI

@Suite("Writing a plan")
struct PlanWriterTests {
    let files = [PlannedFile("README.md", "# Demo\n"), PlannedFile("Sources/Demo/Demo.swift", "let x = 1\n")]

    @Test("a new folder receives every file")
    func newFolder() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.appendingPathComponent("Demo")
        let outcome = try PlanWriter().write(ScaffoldPlan(folder: folder, files: files), force: false)
        #expect(outcome.written == ["README.md", "Sources/Demo/Demo.swift"])
        #expect(try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8) == "# Demo\n")
        #expect(TemporaryFolder.listing(of: temp.url) == ["Demo/README.md", "Demo/Sources/Demo/Demo.swift"])
    }

    @Test("existing files are conflicts reported all at once, and nothing is written")
    func conflicts() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try Data("mine".utf8).write(to: temp.url.appendingPathComponent("README.md"))
        let plan = ScaffoldPlan(folder: temp.url, files: files)
        #expect(throws: BoilerError.conflicts(folder: temp.url.path, paths: ["README.md"])) {
            try PlanWriter().write(plan, force: false)
        }
        #expect(TemporaryFolder.listing(of: temp.url) == ["README.md"])
        #expect(BoilerError.conflicts(folder: "x", paths: ["a"]).exitCode == 73)
    }

    @Test("--force writes the other files and keeps existing ones byte for byte")
    func forceKeepsHumanFiles() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try Data("mine".utf8).write(to: temp.url.appendingPathComponent("README.md"))
        let outcome = try PlanWriter().write(ScaffoldPlan(folder: temp.url, files: files), force: true)
        #expect(outcome.kept == ["README.md"])
        #expect(outcome.written == ["Sources/Demo/Demo.swift"])
        #expect(try String(contentsOf: temp.url.appendingPathComponent("README.md"), encoding: .utf8) == "mine")
    }

    @Test("a failure mid-way undoes every move and leaves the folder as it was")
    func failureLeavesNothing() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        // A file named like a folder the plan needs makes the second move fail.
        try Data("not a folder".utf8).write(to: temp.url.appendingPathComponent("Sources"))
        let before = TemporaryFolder.listing(of: temp.url)
        let plan = ScaffoldPlan(folder: temp.url, files: files + [PlannedFile("A.md", "a")])
        #expect {
            try PlanWriter().write(plan, force: true)
        } throws: { error in
            guard case .writeFailed? = error as? BoilerError else { return false }
            return true
        }
        #expect(TemporaryFolder.listing(of: temp.url) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: temp.url.path)
        #expect(leftovers == ["Sources"])
    }
}
