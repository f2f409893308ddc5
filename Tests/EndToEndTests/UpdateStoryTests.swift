import Foundation
import Testing

/// `boiler update` end to end: a project made with an older template (today's app template with
/// the changes of `Tests/Fixtures/update/older-app.json`), edited by its owner and committed, is
/// brought to today's templates by the built `boiler` — and then builds and passes its tests.
@Suite("boiler update, end to end", .serialized)
struct UpdateStoryTests {
    func git(_ arguments: [String], in folder: URL) async throws {
        let result = try await BoilerProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["git", "-c", "user.name=Owner", "-c", "user.email=owner@example.com"] + arguments, in: folder)
        #expect(result.status == 0, "git \(arguments.joined(separator: " ")): \(result.output)")
    }

    @Test("an older app project with user edits is updated, merged and marked, then builds and passes its tests")
    func olderAppProject() async throws {
        let fixture = try OlderTemplate.load("older-app")
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let project = scratch.url.appendingPathComponent("Notes")
        let made = try await BoilerProcess.boiler(
            ["new", "Notes", "--kit-path", BoilerProcess.kitRoot.path, "--output", project.path, "--no-interactive"],
            in: scratch.url)
        try #require(made.status == 0, "\(made.output)")
        let today = OlderTemplate.snapshot(project, excluding: [".git"])
        try fixture.makeOlder(project)
        try await git(["add", "-A"], in: project)
        try await git(["commit", "-q", "-m", "Made by boiler 0.0.9"], in: project)
        let behind = try await BoilerProcess.boiler(["doctor"], in: project)
        #expect(behind.output.contains("Templates: the project is behind"), "\(behind.output)")
        try fixture.editAsUser(project)
        let edited = OlderTemplate.snapshot(project, excluding: [".git"])

        // Uncommitted edits stop the update; committed, it goes ahead.
        let refused = try await BoilerProcess.boiler(["update"], in: project)
        #expect(refused.status == 73, "\(refused.output)")
        #expect(OlderTemplate.snapshot(project, excluding: [".git"]) == edited)
        try await git(["commit", "-q", "-am", "The owner's edits"], in: project)

        let dryRun = try await BoilerProcess.boiler(["update", "--dry-run"], in: project)
        #expect(dryRun.status == 0, "\(dryRun.output)")
        #expect(OlderTemplate.snapshot(project, excluding: [".git"]) == edited, "--dry-run wrote something")
        let plan = Set(dryRun.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let expect = fixture.expect
        for (action, paths) in [
            ("update", expect.updated), ("merge", expect.merged), ("conflict", expect.conflict), ("add", expect.added),
            ("remove", expect.removed), ("kept", expect.kept),
        ] {
            for path in paths {
                #expect(
                    plan.contains { $0.hasPrefix(action) && $0.contains(" \(path)") },
                    "\(action) \(path): \(dryRun.output)")
            }
        }

        let updated = try await BoilerProcess.boiler(["update"], in: project)
        // A conflict: written with markers, listed, and the exit status says so.
        #expect(updated.status == 1, "\(updated.output)")
        #expect(updated.output.contains("1 file(s) have conflicts"), "\(updated.output)")
        func text(_ path: String) throws -> String {
            try String(contentsOf: project.appendingPathComponent(path), encoding: .utf8)
        }
        func todays(_ path: String) -> String { String(decoding: today[path] ?? Data(), as: UTF8.self) }
        // Untouched files are today's rendering; new template files are added.
        for path in expect.updated + expect.added { #expect(try text(path) == todays(path), "\(path)") }
        // Edited files keep both sides: today's template and the owner's line.
        #expect(
            try text("Sources/NotesCore/Model/Note.swift")
                == todays("Sources/NotesCore/Model/Note.swift") + "\n// The owner's note: keep notes short.\n")
        // The older file declared its own version; the merge hands it over to the design's.
        #expect(try text("Sources/NotesCore/Model/Note.swift").contains("public static let version = designVersion"))
        let readme = try text("README.md")
        #expect(readme.contains("<<<<<<< yours: README.md\nMade with care by its owner.\n=======\n>>>>>>> boiler"))
        #expect(readme.hasPrefix(todays("README.md")))
        // Gone from the templates: removed if untouched, kept (and listed) if edited.
        for path in expect.removed {
            #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent(path).path))
        }
        for path in expect.kept {
            #expect(try text(path).contains("isKept"))
            #expect(updated.output.contains("kept      \(path)"), "\(updated.output)")
        }
        // git has the old files: no backup. The record names today's templates.
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent(".boiler/backup").path))
        let doctor = try await BoilerProcess.boiler(["doctor"], in: project)
        #expect(doctor.output.contains("Templates: current"), "\(doctor.output)")

        // The owner resolves the conflict (keeping their line), and the project builds and passes.
        let resolved = readme.replacingOccurrences(
            of: #"(?s)<<<<<<< yours: README.md\n(.*?)=======\n>>>>>>> [^\n]*\n"#, with: "$1",
            options: .regularExpression)
        try Data(resolved.utf8).write(to: project.appendingPathComponent("README.md"))
        let started = Date()
        let test = try await BoilerProcess.swift(["test"], in: project)
        #expect(test.status == 0, "\(test.output.suffix(4_000))")
        print("updated project: swift test took \(Int(Date().timeIntervalSince(started))) s")
    }
}
