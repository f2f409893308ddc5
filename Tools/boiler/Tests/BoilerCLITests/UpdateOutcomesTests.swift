import Foundation
import Testing

@testable import BoilerCLI

/// `boiler update` on a project made by an "older boiler" (today's files with a few changes, in
/// the files, their bases and the record) and then edited by its owner: what happens to each file.
@Suite("boiler update: what happens to each file")
struct UpdateOutcomesTests {
    static let older = "// Written by an older template.\n"

    @Test("right after new (and add), every template renders what it wrote: update has nothing to do")
    func nothingToDoRightAfterNew() throws {
        for (template, database) in [
            (TemplateKind.app, DatabaseKind?.none), (.cli, nil), (.library, nil), (.server, nil), (.server, .postgres),
        ] {
            let project = try UpdateTestProject(template, database: database)
            defer { project.remove() }
            if template == .app || template == .server {
                // The adders write the files, their bases and the part's name at once.
                for (kind, name) in [(AddPart.Kind.command, "ArchiveNote"), (.route, "Archive"), (.model, "Tag")] {
                    _ = try PartAdder(folder: project.folder).add(kind, named: name, dryRun: false)
                }
                _ = try ResourceAdder(folder: project.folder).add("Label", fields: ["title:String"], dryRun: false)
                #expect(project.exists(ProjectBase.path(of: "Sources/NotesCore/Commands/ArchiveNote.swift")))
            }
            let plan = try project.plan()
            let busy = plan.entries.filter { $0.action != .unchanged }
            #expect(busy.isEmpty, "\(template) \(String(describing: database)): \(busy)")
            #expect(plan.entries.count == (try project.record).files.count)
            let before = project.snapshot()
            #expect(try project.update().isEmpty)
            #expect(project.snapshot() == before, "\(template): an update with nothing to do wrote something")
        }
    }

    @Test("an untouched file changed in the templates is replaced by the new rendering")
    func untouchedIsUpdated() throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        let path = "Sources/Notes/main.swift"
        let today = try project.text(path)
        try project.makeOlder(path) { Self.older + $0 }
        #expect(try project.plan().entries.first { $0.path == path }?.action == .update)
        #expect(try project.update().isEmpty)
        #expect(try project.text(path) == today)
        #expect(try project.text(ProjectBase.path(of: path)) == today)
    }

    @Test("a file the user changed whose rendering did not change is left alone")
    func editedAndUnchangedIsKept() throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        try project.makeOlder("Makefile") { Self.older + $0 }
        let path = "Sources/NotesCore/Model/Note.swift"
        let mine = try project.text(path) + "// mine\n"
        try project.write(path, mine)
        #expect(try project.plan().entries.first { $0.path == path }?.action == .keep)
        try project.update()
        #expect(try project.text(path) == mine)
    }

    @Test("a file both changed, in different places, is merged keeping both sides")
    func bothChangedMerges() throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        let path = "Sources/NotesCore/Model/Note.swift"
        let today = try project.text(path)
        try project.makeOlder(path) { Self.older + $0 }
        try project.write(path, try project.text(path) + "// The user's line.\n")
        #expect(try project.plan().entries.first { $0.path == path }?.action == .merge)
        #expect(try project.update().isEmpty)
        #expect(try project.text(path) == today + "// The user's line.\n")
        #expect(try project.text(ProjectBase.path(of: path)) == today)
        #expect((try project.record).files[path] == ProjectRecord.hash(today))
    }

    @Test("a true conflict is written with markers and reported; the base moves to the new rendering")
    func conflictIsMarked() throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        let path = "README.md"
        let today = try project.text(path)
        try project.makeOlder(path) { $0 + "Older closing line.\n" }
        try project.write(path, today + "The user's closing line.\n")
        let conflicts = try project.update()
        #expect(conflicts == [path])
        let text = try project.text(path)
        #expect(text.hasPrefix(today))
        #expect(text.contains("<<<<<<< yours: README.md\nThe user's closing line.\n=======\n"))
        #expect(text.contains(">>>>>>> boiler \(ProjectBase.templateVersion): README.md\n"))
        #expect(try project.text(ProjectBase.path(of: path)) == today)
    }

    @Test("a new template file is added; a user's file already at its path is a conflict, not overwritten")
    func newTemplateFiles() throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        let added = "Makefile"
        let today = try project.text(added)
        try project.removeNewerFile(added)
        let taken = ".gitignore"
        try project.removeNewerFile(taken)
        try project.write(taken, "my-own-ignores/\n")
        let plan = try project.plan()
        #expect(plan.entries.first { $0.path == added }?.action == .add)
        #expect(plan.entries.first { $0.path == taken }?.action == .conflict)
        #expect(try project.update() == [taken])
        #expect(try project.text(added) == today)
        let merged = try project.text(taken)
        #expect(merged.contains("my-own-ignores/\n") && merged.contains(".build*/\n") && merged.contains("<<<<<<<"))
        #expect((try project.record).files[added] != nil)
    }

    @Test("a file gone from the templates is removed if untouched, else kept, listed, and no longer boiler's")
    func removedTemplateFiles() throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        try project.addOlderFile("Sources/NotesCore/OldHelper.swift", "enum OldHelper {}\n")
        try project.addOlderFile("docs/OLD.md", "# Old notes\n")
        try project.write("docs/OLD.md", "# Old notes\n\nMine now.\n")
        let plan = try project.plan()
        #expect(plan.entries.first { $0.path == "Sources/NotesCore/OldHelper.swift" }?.action == .remove)
        #expect(plan.entries.first { $0.path == "docs/OLD.md" }?.action == .kept)
        try project.update()
        #expect(!project.exists("Sources/NotesCore/OldHelper.swift"))
        #expect(!project.exists(ProjectBase.path(of: "Sources/NotesCore/OldHelper.swift")))
        #expect(try project.text("docs/OLD.md") == "# Old notes\n\nMine now.\n")
        let record = try project.record
        #expect(record.files["docs/OLD.md"] == nil && record.fileVersions?["docs/OLD.md"] == nil)
    }

    @Test("--dry-run plans every action and writes nothing")
    func dryRunWritesNothing() throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        try project.makeOlder("Sources/Notes/main.swift") { Self.older + $0 }
        try project.makeOlder("README.md") { $0 + "Older.\n" }
        try project.write("README.md", try project.text("README.md").replacing("Older.\n", with: "Mine.\n"))
        let before = project.snapshot()
        try project.update(dryRun: true)
        #expect(project.snapshot() == before)
        let actions = Set(try project.plan().entries.map(\.action))
        #expect(actions.isSuperset(of: [.update, .conflict, .unchanged]))
    }

    @Test("outside git, every file the update changes is copied to .boiler/backup/<time>/ first")
    func backupOutsideGit() throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        let path = "Sources/Notes/main.swift"
        try project.makeOlder(path) { Self.older + $0 }
        let old = try project.text(path)
        try project.update()
        let backups = TemporaryFolder.listing(of: project.folder.appendingPathComponent(".boiler/backup"))
        #expect(backups.count == 1 && backups.first?.hasSuffix("/" + path) == true, "\(backups)")
        if let copy = backups.first {
            let url = project.folder.appendingPathComponent(".boiler/backup").appendingPathComponent(copy)
            #expect(try String(contentsOf: url, encoding: .utf8) == old)
        }
    }

    @Test("after an update the record names the new template version for every file, and a second update does nothing")
    func recordAfterUpdate() throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        try project.makeOlder("Sources/Notes/main.swift") { Self.older + $0 }
        #expect((try project.record).templateVersion == "0.0.9")
        try project.update()
        let record = try project.record
        #expect(record.templateVersion == ProjectBase.templateVersion)
        #expect(Set(record.fileVersions?.values ?? [:].values) == [ProjectBase.templateVersion])
        #expect(Set(record.fileVersions?.keys ?? [:].keys) == Set(record.files.keys))
        for (path, hash) in record.files {
            #expect(ProjectRecord.hash(try project.text(ProjectBase.path(of: path))) == hash, "\(path)")
        }
        let before = project.snapshot()
        try project.update()
        #expect(project.snapshot() == before)
    }

    @Test("a file the user deleted stays deleted, even when the templates changed it; the base moves on")
    func deletedByUser() throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        let today = try project.text("README.md")
        try FileManager.default.removeItem(at: project.folder.appendingPathComponent("Makefile"))
        try project.makeOlder("README.md") { $0 + "Older.\n" }
        try FileManager.default.removeItem(at: project.folder.appendingPathComponent("README.md"))
        let plan = try project.plan()
        #expect(plan.entries.filter { $0.action == .keep }.map(\.path) == ["Makefile", "README.md"])
        #expect(try project.update().isEmpty)
        #expect(!project.exists("Makefile") && !project.exists("README.md"))
        #expect((try project.record).files["README.md"] == ProjectRecord.hash(today))
        #expect(try project.text(ProjectBase.path(of: "README.md")) == today)
    }
}
