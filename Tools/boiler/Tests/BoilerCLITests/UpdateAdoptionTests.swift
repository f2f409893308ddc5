import Foundation
import Testing

@testable import BoilerCLI

/// `boiler update --adopt` on a project made before boiler kept a base: files still as boiler
/// wrote them become the base, edited ones are reported and left to the next update as conflicts.
@Suite("boiler update --adopt")
struct UpdateAdoptionTests {
    /// Makes `project` as boiler made projects before this feature: no base, no versions.
    func makeOld(_ project: UpdateTestProject) throws {
        var record = try project.record
        record.templateVersion = nil
        record.fileVersions = nil
        try project.saveRecord(record)
        try FileManager.default.removeItem(at: project.folder.appendingPathComponent(".boiler"))
    }

    @Test("unedited files become the base; an edited one the templates changed since is listed, no longer boiler's")
    func adopt() throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        _ = try PartAdder(folder: project.folder).add(.command, named: "ArchiveNote", dryRun: false)
        // Written by an older template, then edited: no base can be found for it.
        let edited = "Sources/NotesCore/Model/Note.swift"
        try project.makeOlder(edited) { "// older\n" + $0 }
        try makeOld(project)
        try project.write(edited, try project.text(edited) + "// mine\n")
        // Edited, but the templates did not change it since: this boiler's rendering is its base.
        try project.write("Makefile", try project.text("Makefile") + "# mine\n")
        let outcome = try Adoption(folder: project.folder).adopt(try project.record)
        #expect(outcome.released == [edited])
        #expect(outcome.fromRendering == ["Makefile"])
        #expect(outcome.foundParts == ["command ArchiveNote"])
        let record = try project.record
        #expect(record.templateVersion == record.boilerVersion)
        #expect(record.files[edited] == nil)
        #expect(record.parts?.commands == ["ArchiveNote"])
        for (path, hash) in record.files {
            #expect(ProjectRecord.hash(try project.text(ProjectBase.path(of: path))) == hash, "\(path)")
        }
        // Then update works: the edited file meets the template's version as a new file beside
        // the user's (a conflict); the Makefile keeps the user's line; the rest is current.
        let plan = try project.plan()
        #expect(plan.entries.first { $0.path == edited }?.action == .conflict)
        #expect(plan.entries.first { $0.path == "Makefile" }?.action == .keep)
        #expect(plan.entries.filter { ![edited, "Makefile"].contains($0.path) }.allSatisfy { $0.action == .unchanged })
    }

    @Test("a file deleted by the user gets its base from this boiler's rendering when that matches")
    func deletedFileBaseFromRendering() throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        try makeOld(project)
        try FileManager.default.removeItem(at: project.folder.appendingPathComponent("Makefile"))
        let outcome = try Adoption(folder: project.folder).adopt(try project.record)
        #expect(outcome.fromRendering == ["Makefile"])
        #expect(project.exists(ProjectBase.path(of: "Makefile")) && !project.exists("Makefile"))
    }
}
