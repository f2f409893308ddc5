import Foundation
import Testing

/// `boiler add --dry-run`: the plan `boiler update --dry-run` prints, for the files the add
/// would write, and nothing written.
@Suite("boiler add --dry-run")
struct AddDryRunTests {
    @Test("prints the plan as boiler update --dry-run does, merges included, and writes nothing")
    func dryRun() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let project = scratch.url.appendingPathComponent("Notes")
        let made = try await BoilerProcess.boiler(
            [
                "new", "Notes", "--kit-path", BoilerProcess.kitRoot.path, "--output", project.path, "--no-git",
                "--no-interactive",
            ], in: scratch.url)
        try #require(made.status == 0, "\(made.output)")
        let before = OlderTemplate.snapshot(project)

        let plan = try await BoilerProcess.boiler(["add", "route", "Archive", "--dry-run"], in: project)
        #expect(plan.status == 0, "\(plan.output)")
        let lines = plan.output.split(separator: "\n").map(String.init)
        let update = try await BoilerProcess.boiler(["update", "--dry-run"], in: project)
        let updateLines = update.output.split(separator: "\n").map(String.init)
        // The same header (the folder and the merge engine) and the same closing count as update's.
        #expect(lines.first?.hasPrefix("Plan for ") == true && lines.first == updateLines.first, "\(plan.output)")
        #expect(
            Array(lines.dropFirst().prefix(3)) == [
                "  update    Sources/NotesCore/Generated/_Parts.swift",
                "  add       Sources/NotesCore/Routes/ArchiveRoutes.swift",
                "  0 file(s) already as the templates render them",
            ], "\(plan.output)")
        #expect(OlderTemplate.snapshot(project) == before, "a dry run wrote something")

        // An edited machine file is planned as a merge, and still nothing is written.
        let parts = project.appendingPathComponent("Sources/NotesCore/Generated/_Parts.swift")
        try Data((try String(contentsOf: parts, encoding: .utf8) + "// mine\n").utf8).write(to: parts)
        let edited = OlderTemplate.snapshot(project)
        let merge = try await BoilerProcess.boiler(["add", "route", "Archive", "--dry-run"], in: project)
        #expect(merge.status == 0, "\(merge.output)")
        #expect(merge.output.contains("\n  merge     Sources/NotesCore/Generated/_Parts.swift\n"), "\(merge.output)")
        #expect(OlderTemplate.snapshot(project) == edited, "a dry run wrote something")
    }
}
