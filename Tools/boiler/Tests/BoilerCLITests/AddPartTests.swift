import Foundation
import Testing

@testable import BoilerCLI

@Suite("boiler add")
struct AddPartTests {
    /// Scaffolds a project of `template` into a temp folder and returns its folder.
    func project(_ template: TemplateKind, packages: [String]? = nil, in temp: TemporaryFolder) throws -> URL {
        let options = ProjectOptions(
            name: try ProjectName("Notes"), template: template, packages: packages, kit: .path("/k"))
        let folder = temp.url.appendingPathComponent("Notes")
        _ = try PlanWriter().write(try Scaffolder(options: options).plan(in: folder), force: false)
        return folder
    }

    func read(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("a command gets a source file and a test, and is recorded")
    func command() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        let outcome = try PartAdder(folder: folder).add(.command, named: "archive-note", dryRun: false)
        #expect(
            outcome.written == [
                "Sources/NotesCore/Commands/ArchiveNote.swift", "Tests/NotesCoreTests/ArchiveNoteTests.swift",
            ])
        #expect(try read(folder, "Sources/NotesCore/Commands/ArchiveNote.swift").contains("inout NotesModel"))
        let record = try ProjectRecord.read(in: folder)
        #expect(record.files["Sources/NotesCore/Commands/ArchiveNote.swift"] != nil)
    }

    @Test("routes and services are wired through the machine file, in the order they were added")
    func wiring() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        _ = try PartAdder(folder: folder).add(.route, named: "Settings", dryRun: false)
        _ = try PartAdder(folder: folder).add(.service, named: "Sync", dryRun: false)
        let wiring = try read(folder, "Sources/NotesCore/Generated/_Parts.swift")
        #expect(wiring.contains("try SettingsRoutes.register(on: router)"))
        #expect(wiring.contains(#"services.register("sync") { [bus] in SyncService(bus: bus) }"#))
        #expect(try read(folder, "Sources/NotesCore/Routes/SettingsRoutes.swift").contains(#""/settings""#))
        #expect(
            try ProjectRecord.read(in: folder).parts == ProjectRecord.Parts(routes: ["Settings"], services: ["Sync"]))
    }

    @Test("a part whose files exist is a conflict, and nothing changes")
    func neverOverwrites() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        _ = try PartAdder(folder: folder).add(.command, named: "ArchiveNote", dryRun: false)
        let path = "Sources/NotesCore/Commands/ArchiveNote.swift"
        try Data("// mine\n".utf8).write(to: folder.appendingPathComponent(path))
        let before = TemporaryFolder.listing(of: folder)
        #expect {
            try PartAdder(folder: folder).add(.command, named: "ArchiveNote", dryRun: false)
        } throws: { error in
            guard case .conflicts(_, let paths)? = error as? BoilerError else { return false }
            return paths.contains(path)
        }
        #expect(try read(folder, path) == "// mine\n")
        #expect(TemporaryFolder.listing(of: folder) == before)
    }

    @Test("a file of the user's where a new part's file goes is a conflict (73), and nothing changes")
    func userFileInTheWay() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        let mine = "Sources/NotesCore/Commands/ExportNotes.swift"
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(mine).deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("// mine\n".utf8).write(to: folder.appendingPathComponent(mine))
        let before = TemporaryFolder.listing(of: folder)
        #expect {
            try PartAdder(folder: folder).add(.command, named: "ExportNotes", dryRun: false)
        } throws: { error in
            guard case .conflicts(_, let paths)? = error as? BoilerError else { return false }
            return paths == [mine] && (error as? BoilerError)?.exitCode == 73
        }
        #expect(try read(folder, mine) == "// mine\n")
        #expect(TemporaryFolder.listing(of: folder) == before)
    }

    @Test("a part named like a type the app declares is refused before anything is written")
    func declaredTypes() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        let before = TemporaryFolder.listing(of: folder)
        // Types of the template in files named otherwise, and one named after its file.
        for (kind, name) in [
            (AddPart.Kind.model, "Screen"), (.command, "NotesModel"), (.command, "RemoteNote"), (.model, "PinNote"),
        ] {
            #expect {
                try PartAdder(folder: folder).add(kind, named: name, dryRun: false)
            } throws: { error in
                guard case .invalidResource(_, let value, let reason)? = error as? BoilerError else { return false }
                return value == name && reason.contains("already has a type named")
            }
        }
        #expect(TemporaryFolder.listing(of: folder) == before)
    }

    @Test("a route at the notes' path is refused: the app's router takes one handler per path")
    func servedPath() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        #expect {
            try PartAdder(folder: folder).add(.route, named: "Notes", dryRun: false)
        } throws: { error in
            guard case .invalidResource(_, _, let reason)? = error as? BoilerError else { return false }
            return reason.contains("/notes is served already")
        }
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("Sources/NotesCore/Routes/NotesRoutes.swift").path))
    }

    @Test("a library's sample types count as taken")
    func librarySamples() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.library, in: temp)
        #expect {
            try PartAdder(folder: folder).add(.command, named: "ItemsModel", dryRun: false)
        } throws: { error in
            guard case .invalidResource(_, _, let reason)? = error as? BoilerError else { return false }
            return reason.contains("already has a type named ItemsModel")
        }
    }

    @Test("a hand-edited wiring file with no base to merge from is not overwritten, nor the new route written")
    func editedMachineFile() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        let wiring = folder.appendingPathComponent("Sources/NotesCore/Generated/_Parts.swift")
        try Data("// edited\n".utf8).write(to: wiring)
        #expect(throws: BoilerError.self) {
            try PartAdder(folder: folder).add(.route, named: "Settings", dryRun: false)
        }
        #expect(try String(contentsOf: wiring, encoding: .utf8) == "// edited\n")
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("Sources/NotesCore/Routes/SettingsRoutes.swift").path))
    }

    @Test("a hand-edited wiring file is merged three ways: the user's line stays and the route is wired in")
    func editedMachineFileMerges() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let options = ProjectOptions(name: try ProjectName("Notes"), template: .app, packages: nil, kit: .path("/k"))
        let folder = temp.url.appendingPathComponent("Notes")
        _ = try PlanWriter().write(
            ProjectBase.adding(to: try Scaffolder(options: options).plan(in: folder)), force: false)
        let path = "Sources/NotesCore/Generated/_Parts.swift"
        let edited = try read(folder, path) + "// mine\n"
        try Data(edited.utf8).write(to: folder.appendingPathComponent(path))
        let outcome = try PartAdder(folder: folder).add(.route, named: "Settings", dryRun: false)
        #expect(outcome.written == [path, "Sources/NotesCore/Routes/SettingsRoutes.swift"])
        #expect(outcome.plan.entries.map(\.action) == [.merge, .add])
        #expect(outcome.conflicts.isEmpty)
        let merged = try read(folder, path)
        #expect(merged.hasSuffix("// mine\n") && merged.contains("SettingsRoutes.register(on: router)"))
    }

    @Test("a model becomes a design file the build plugin picks up")
    func model() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        _ = try PartAdder(folder: folder).add(.model, named: "Tag", dryRun: false)
        #expect(try read(folder, "Sources/NotesCore/Designs/Tag.modelgen.yaml").contains("- name: Tag"))
    }

    @Test("--dry-run writes nothing")
    func dryRun() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        let before = TemporaryFolder.listing(of: folder)
        let outcome = try PartAdder(folder: folder).add(.route, named: "Settings", dryRun: true)
        #expect(outcome.written.contains("Sources/NotesCore/Generated/_Parts.swift"))
        #expect(TemporaryFolder.listing(of: folder) == before)
    }

    @Test("services and models need the app template; outside a project there is nothing to add to")
    func refusals() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.library, packages: ["Errors", "Router"], in: temp)
        #expect(throws: BoilerError.self) { try PartAdder(folder: folder).add(.service, named: "Sync", dryRun: false) }
        #expect(throws: BoilerError.self) { try PartAdder(folder: folder).add(.command, named: "Go", dryRun: false) }
        #expect(throws: BoilerError.notAProject(folder: temp.url.path)) {
            try PartAdder(folder: temp.url).add(.command, named: "Go", dryRun: false)
        }
        #expect(throws: BoilerError.self) { try PartAdder(folder: folder).add(.route, named: "Router", dryRun: false) }
    }
}
