import Foundation
import Testing

@testable import BoilerCLI

@Suite("boiler new")
struct NewProjectCommandTests {
    @Test("--dry-run prints the plan and writes nothing")
    func dryRun() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let target = temp.url.appendingPathComponent("Notes").path
        let command = try NewProject.parse(["Notes", "--output", target, "--dry-run", "--no-interactive", "--quiet"])
        try await command.run()
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.url.path).isEmpty)
    }

    @Test("a folder with files the project would write is a conflict without --force")
    func conflict() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try Data("mine".utf8).write(to: temp.url.appendingPathComponent("Package.swift"))
        let command = try NewProject.parse(["Notes", "--output", temp.url.path, "--no-git", "--quiet"])
        await #expect(throws: (any Error).self) { try await command.run() }
        #expect(TemporaryFolder.listing(of: temp.url) == ["Package.swift"])
    }

    @Test("--kit-path cannot be combined with --kit-url")
    func kitOptionsConflict() {
        #expect(throws: (any Error).self) {
            _ = try NewProject.parse(["Notes", "--kit-path", "/k", "--kit-url", "https://example.com/k"])
        }
    }

    @Test("a malformed --set is a usage error")
    func badSet() throws {
        let command = try NewProject.parse(["Notes", "--set", "novalue", "--no-interactive"])
        #expect(throws: BoilerError.invalidOption("set", value: "novalue", expected: "key=value")) {
            try command.makeOptions(console: Console(quiet: true))
        }
    }
}
