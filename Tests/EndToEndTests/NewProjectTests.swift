import Foundation
import Testing

@Suite("boiler new, end to end", .serialized)
struct NewProjectTests {
    @Test("a library on two kit packages builds and passes its own tests on the first try (--verify)")
    func libraryWithTwoPackages() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let project = scratch.url.appendingPathComponent("Shop")
        let made = try await BoilerProcess.boiler(
            [
                "new", "shop", "--template", "library", "--packages", "Errors,Router",
                "--kit-path", BoilerProcess.kitRoot.path, "--output", project.path, "--no-git", "--no-interactive",
                "--set", "summary=A shop on the kit.", "--verify",
            ], in: scratch.url)
        #expect(made.status == 0, "\(made.output)")
        #expect(made.output.contains("✓ Created library project Shop"))
        // --verify ran both in the new project, and each succeeded (a failure exits 1).
        #expect(made.output.contains("✓ swift build"))
        #expect(made.output.contains("✓ swift test"))
        #expect(try await KitImportCheck.problems(in: project) == [])
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent(".build").path))
        let readme = try String(contentsOf: project.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.hasPrefix("# Shop\n\nA shop on the kit.\n\nA library project"))
    }

    @Test("the app template builds, passes its tests and runs; parts and a resource added later build and pass too")
    func appTemplate() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let project = scratch.url.appendingPathComponent("Notes")
        let made = try await BoilerProcess.boiler(
            ["new", "Notes", "--kit-path", BoilerProcess.kitRoot.path, "--output", project.path, "--no-interactive"],
            in: scratch.url)
        #expect(made.status == 0, "\(made.output)")
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent(".git").path))
        let test = try await BoilerProcess.swift(["test"], in: project)
        #expect(test.status == 0, "\(test.output)")
        let run = try await BoilerProcess.swift(["run", "Notes"], in: project)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("Showing note(0)"))
        #expect(run.output.contains("Notes has 1 note(s); the activity log saw 1 change(s)."))

        for (kind, name) in [("command", "ArchiveNote"), ("route", "Settings"), ("service", "Sync"), ("model", "Tag")] {
            let added = try await BoilerProcess.boiler(["add", kind, name, "--project", project.path], in: scratch.url)
            #expect(added.status == 0, "\(added.output)")
        }
        let resource = try await BoilerProcess.boiler(
            ["add", "resource", "Label", "name:String", "count:Int", "done:Bool?", "--project", project.path],
            in: scratch.url)
        #expect(resource.status == 0, "\(resource.output)")
        let again = try await BoilerProcess.boiler(
            ["add", "command", "ArchiveNote", "--project", project.path], in: scratch.url)
        #expect(again.status == 73)
        let retest = try await BoilerProcess.swift(["test"], in: project)
        #expect(retest.status == 0, "\(retest.output)")
        #expect(try await KitImportCheck.problems(in: project) == [])
    }

    @Test("a name that collides with a kit module is refused with exit code 64 and nothing is written")
    func reservedName() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let result = try await BoilerProcess.boiler(["new", "Router", "--no-interactive"], in: scratch.url)
        #expect(result.status == 64)
        #expect(result.output.contains("'Router' would collide with the module Router"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }

    @Test("a folder holding files the project would write exits 73 and is left untouched")
    func conflictExitCode() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let readme = scratch.url.appendingPathComponent("README.md")
        try Data("mine".utf8).write(to: readme)
        let result = try await BoilerProcess.boiler(
            ["new", "Notes", "--output", scratch.url.path, "--no-interactive", "--no-git"], in: scratch.url)
        #expect(result.status == 73)
        #expect(result.output.contains("README.md"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["README.md"])
        #expect(try String(contentsOf: readme, encoding: .utf8) == "mine")
    }

    @Test("a folder holding only files the project would not write exits 73, names them, and is left untouched")
    func nonEmptyFolderExitCode() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let target = scratch.url.appendingPathComponent("Keep")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: target.appendingPathComponent("notes.txt"))
        try Data("x".utf8).write(to: target.appendingPathComponent(".env"))
        let result = try await BoilerProcess.boiler(
            ["new", "Keep", "--output", target.path, "--no-interactive", "--no-git"], in: scratch.url)
        #expect(result.status == 73)
        #expect(result.output.contains("notes.txt") && result.output.contains(".env"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).sorted() == [".env", "notes.txt"])
    }

    @Test("--dry-run lists the plan and writes nothing")
    func dryRun() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let result = try await BoilerProcess.boiler(
            ["new", "Notes", "--template", "library", "--dry-run", "--no-interactive"], in: scratch.url)
        #expect(result.status == 0)
        #expect(result.output.contains("write Package.swift"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }

    @Test("doctor checks the toolchain and the project: missing generated files or a broken record exit 1")
    func doctor() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let outside = try await BoilerProcess.boiler(["doctor"], in: scratch.url)
        #expect(outside.status == 0, "\(outside.output)")
        #expect(outside.output.contains("Swift version"))
        #expect(outside.output.contains("Not inside a boiler project"))

        let made = try await BoilerProcess.boiler(
            ["new", "Notes", "--template", "library", "--kit-path", "/k", "--no-git", "--no-interactive"],
            in: scratch.url)
        #expect(made.status == 0, "\(made.output)")
        let project = scratch.url.appendingPathComponent("Notes")
        let healthy = try await BoilerProcess.boiler(["doctor"], in: project)
        #expect(healthy.status == 0, "\(healthy.output)")
        #expect(healthy.output.contains("Project Notes (library)"))
        #expect(healthy.output.contains("generated files are present"))

        try FileManager.default.removeItem(at: project.appendingPathComponent("Sources/Notes/NotesError.swift"))
        let missing = try await BoilerProcess.boiler(["doctor"], in: project)
        #expect(missing.status == 1)
        #expect(missing.output.contains("Generated files missing: Sources/Notes/NotesError.swift"))

        try Data("{ not json".utf8).write(to: project.appendingPathComponent(".boiler.json"))
        let broken = try await BoilerProcess.boiler(["doctor"], in: project)
        #expect(broken.status == 1)
        #expect(broken.output.contains(".boiler.json"))
        #expect(!broken.output.contains("Not inside a boiler project"))
    }

    @Test("templates --json lists every template")
    func templatesJSON() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let result = try await BoilerProcess.boiler(["templates", "--json"], in: scratch.url)
        #expect(result.status == 0)
        let entries = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: String]]
        #expect(entries?.compactMap { $0["name"] } == ["app", "cli", "library", "server"])
    }
}
