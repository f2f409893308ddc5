import ArgumentParser
import Foundation
import Testing

@testable import BoilerCLI

/// `boiler new` into a folder that already holds anything — even files the project would not
/// write, even hidden ones — is refused without `--force` (exit 73), naming what is there.
@Suite("boiler new into a folder that is not empty")
struct NonEmptyFolderTests {
    func newProject(_ folder: URL, _ extra: [String] = []) throws -> NewProject {
        try NewProject.parse(["Keep", "--output", folder.path, "--no-git", "--quiet", "--no-interactive"] + extra)
    }

    @Test("a folder with files the project would not write is refused, with its entries named, and left alone")
    func refusedWithoutForce() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try Data("mine".utf8).write(to: temp.url.appendingPathComponent("notes.txt"))
        try Data("x".utf8).write(to: temp.url.appendingPathComponent(".hidden"))
        let before = TemporaryFolder.listing(of: temp.url)
        for extra in [[], ["--dry-run"]] {
            await #expect(throws: ExitCode(73)) { try await newProject(temp.url, extra).run() }
            #expect(TemporaryFolder.listing(of: temp.url) == before)
        }
        let plan = ScaffoldPlan(folder: temp.url, files: [])
        #expect(plan.existingEntries() == [".hidden", "notes.txt"])
        let error = BoilerError.folderNotEmpty(folder: temp.url.path, entries: plan.existingEntries())
        #expect(error.exitCode == 73)
        #expect(error.message.contains("notes.txt") && error.message.contains(".hidden"))
        #expect(error.message.contains("--force"))
    }

    @Test("a folder holding only a sub-folder is not empty either")
    func subfolderCounts() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        try FileManager.default.createDirectory(
            at: temp.url.appendingPathComponent(".git"), withIntermediateDirectories: true)
        await #expect(throws: ExitCode(73)) { try await newProject(temp.url).run() }
        #expect(ScaffoldPlan(folder: temp.url, files: []).existingEntries() == [".git"])
    }

    @Test("an empty existing folder is fine, and --force writes beside existing files and keeps them")
    func emptyAndForced() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let empty = temp.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try await newProject(empty).run()
        #expect(FileManager.default.fileExists(atPath: empty.appendingPathComponent("Package.swift").path))

        let busy = temp.url.appendingPathComponent("busy")
        try FileManager.default.createDirectory(at: busy, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: busy.appendingPathComponent("notes.txt"))
        try await newProject(busy, ["--force"]).run()
        #expect(try String(contentsOf: busy.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")
        #expect(FileManager.default.fileExists(atPath: busy.appendingPathComponent("Package.swift").path))
    }

    @Test("a file where the project folder should be is refused")
    func fileInTheWay() async throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let file = temp.url.appendingPathComponent("Keep")
        try Data("x".utf8).write(to: file)
        await #expect(throws: ExitCode(73)) { try await newProject(file).run() }
        #expect(ScaffoldPlan(folder: file, files: []).existingEntries() == ["Keep"])
        #expect(try String(contentsOf: file, encoding: .utf8) == "x")
    }
}
