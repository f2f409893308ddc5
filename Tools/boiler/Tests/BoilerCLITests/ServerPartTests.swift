import Foundation
import Testing

@testable import BoilerCLI

/// `boiler add command|route|service|model` in a server project: parts that fit its domain and
/// HTTP layer, wired through its own machine file. (That they compile and their tests pass in a
/// generated project is checked end to end by the root package's ServerTemplateTests.)
@Suite("boiler add in a server project")
struct ServerPartTests {
    func serverProject(in temp: TemporaryFolder) throws -> URL {
        let options = ProjectOptions(name: try ProjectName("Notes"), template: .server, packages: nil, kit: .path("/k"))
        let folder = temp.url.appendingPathComponent("Notes")
        _ = try PlanWriter().write(try Scaffolder(options: options).plan(in: folder), force: false)
        return folder
    }

    func read(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    static let wiring = "Sources/NotesCore/Generated/_Parts.swift"

    @Test("a command runs against the NoteDomain and comes with a test over a real database; it is recorded")
    func command() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        let outcome = try PartAdder(folder: folder).add(.command, named: "archive-note", dryRun: false)
        #expect(
            outcome.written == [
                "Sources/NotesCore/Commands/ArchiveNote.swift", "Tests/NotesCoreTests/ArchiveNoteTests.swift",
            ])
        #expect(outcome.hint == nil)
        let source = try read(folder, "Sources/NotesCore/Commands/ArchiveNote.swift")
        #expect(source.contains("public struct ArchiveNote: NoteCommand"))
        #expect(source.contains("func run(in domain: NoteDomain) async throws"))
        let test = try read(folder, "Tests/NotesCoreTests/ArchiveNoteTests.swift")
        #expect(test.contains("NotesDatabase.open(.sqlite("))
        #expect(test.contains("try await domain.run(ArchiveNote())"))
        let record = try ProjectRecord.read(in: folder)
        #expect(record.files["Sources/NotesCore/Commands/ArchiveNote.swift"] == ProjectRecord.hash(source))
    }

    @Test("routes and services are wired through Generated/_Parts.swift, which the router and main call")
    func wiring() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        let empty = try read(folder, Self.wiring)
        #expect(empty.contains("public enum NotesParts"))
        #expect(
            try read(folder, "Sources/NotesCore/NotesServer.swift").contains(
                "NotesParts.addRoutes(to: router, domain: domain)"))
        #expect(
            try read(folder, "Sources/Notes/main.swift").contains(
                "NotesParts.registerServices(in: services, domain: domain, log: LogSink(log))"))

        let route = try PartAdder(folder: folder).add(.route, named: "UserStats", dryRun: false)
        #expect(
            route.written == [
                Self.wiring, "Sources/NotesCore/HTTP/UserStatsRoutes.swift",
                "Tests/NotesCoreTests/UserStatsRoutesTests.swift",
            ])
        #expect(route.hint == nil)
        _ = try PartAdder(folder: folder).add(.service, named: "Sync", dryRun: false)
        _ = try PartAdder(folder: folder).add(.route, named: "Export", dryRun: false)
        let wiring = try read(folder, Self.wiring)
        #expect(
            wiring.contains(
                """
                        UserStatsRoutes.add(to: router, domain: domain)
                        ExportRoutes.add(to: router, domain: domain)

                """))
        #expect(wiring.contains("services.register(SyncService.self) { SyncService(bus: domain.bus, log: log) }"))
        #expect(try read(folder, "Sources/NotesCore/HTTP/UserStatsRoutes.swift").contains(#"router.get("user-stats")"#))
        #expect(try read(folder, "Tests/NotesCoreTests/UserStatsRoutesTests.swift").contains(#"uri: "/user-stats""#))
        #expect(
            try read(folder, "Sources/NotesCore/Services/SyncService.swift").contains(
                "public init(bus: Bus, log: LogSink)"))
        let record = try ProjectRecord.read(in: folder)
        #expect(record.parts == ProjectRecord.Parts(routes: ["UserStats", "Export"], services: ["Sync"]))
        #expect(record.files[Self.wiring] == ProjectRecord.hash(wiring))
    }

    @Test("a model is a design file, as in an app")
    func model() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        let outcome = try PartAdder(folder: folder).add(.model, named: "Label", dryRun: false)
        #expect(outcome.written == ["Sources/NotesCore/Designs/Label.modelgen.yaml"])
        #expect(try read(folder, "Sources/NotesCore/Designs/Label.modelgen.yaml").contains("- name: Label"))
    }

    @Test("a project made before the machine file existed gets it, and is told the two calls to add")
    func olderProject() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        try FileManager.default.removeItem(at: folder.appendingPathComponent(Self.wiring))
        var record = try ProjectRecord.read(in: folder)
        record.files[Self.wiring] = nil
        try Data(record.json.utf8).write(to: folder.appendingPathComponent(ProjectRecord.fileName))

        let outcome = try PartAdder(folder: folder).add(.service, named: "Sync", dryRun: false)
        #expect(outcome.written.contains(Self.wiring))
        let hint = try #require(outcome.hint)
        #expect(hint.contains("NotesParts.addRoutes(to: router, domain: domain)"))
        #expect(hint.contains("NotesParts.registerServices(in: services, domain: domain, log: LogSink(log))"))
        #expect(try read(folder, Self.wiring).contains("SyncService(bus: domain.bus, log: log)"))
    }

    @Test("a hand-edited machine file with no base to merge from is refused (65), and nothing is written")
    func editedMachineFileWithoutBase() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        try Data("// mine\n".utf8).write(to: folder.appendingPathComponent(Self.wiring))
        let before = TemporaryFolder.listing(of: folder)
        #expect {
            try PartAdder(folder: folder).add(.route, named: "Export", dryRun: false)
        } throws: { error in
            guard case .invalidBase(let path, let reason)? = error as? BoilerError else { return false }
            return path == ProjectBase.path(of: Self.wiring) && reason.contains("nothing to merge from")
                && (error as? BoilerError)?.exitCode == 65
        }
        #expect(try read(folder, Self.wiring) == "// mine\n")
        #expect(TemporaryFolder.listing(of: folder) == before)
        #expect(try ProjectRecord.read(in: folder).parts == nil)
    }

    @Test("a hand-edited machine file is merged three ways, as update merges it: both changed a line, a conflict")
    func editedMachineFileConflicts() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let options = ProjectOptions(name: try ProjectName("Notes"), template: .server, packages: nil, kit: .path("/k"))
        let folder = temp.url.appendingPathComponent("Notes")
        _ = try PlanWriter().write(
            ProjectBase.adding(to: try Scaffolder(options: options).plan(in: folder)), force: false)
        try Data("// mine\n".utf8).write(to: folder.appendingPathComponent(Self.wiring))
        let outcome = try PartAdder(folder: folder).add(.route, named: "Export", dryRun: false)
        #expect(outcome.conflicts == [Self.wiring])
        let merged = try read(folder, Self.wiring)
        #expect(merged.contains("<<<<<<<") && merged.contains("// mine") && merged.contains("ExportRoutes"))
        #expect(try ProjectRecord.read(in: folder).parts?.routes == ["Export"])
        let route = "Sources/NotesCore/HTTP/ExportRoutes.swift"
        for path in [route, ProjectBase.path(of: route)] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), "\(path)")
        }
    }

    @Test("a part whose file exists is a conflict; a name that is not a Swift name is refused; nothing is written")
    func refusals() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        // A file of the user's where the part would go.
        let mine = folder.appendingPathComponent("Sources/NotesCore/HTTP/ExportRoutes.swift")
        try Data("// mine\n".utf8).write(to: mine)
        let before = TemporaryFolder.listing(of: folder)
        #expect {
            try PartAdder(folder: folder).add(.route, named: "Export", dryRun: false)
        } throws: { error in
            guard case .conflicts(_, let paths)? = error as? BoilerError else { return false }
            return paths == ["Sources/NotesCore/HTTP/ExportRoutes.swift"]
        }
        #expect(try read(folder, "Sources/NotesCore/HTTP/ExportRoutes.swift") == "// mine\n")
        // A type the template declares.
        for (kind, name) in [
            (AddPart.Kind.command, "CreateNote"), (.model, "NoteActivityLog"), (.command, "NotesParts"),
            (.command, "NotePage"),
        ] {
            #expect {
                try PartAdder(folder: folder).add(kind, named: name, dryRun: false)
            } throws: { error in
                guard case .invalidResource(_, let value, let reason)? = error as? BoilerError else { return false }
                return value == name && reason.contains("already has a type named")
            }
        }
        for name in ["../Evil", "Evil\nName", "", String(repeating: "A", count: 10_000_000)] {
            #expect {
                try PartAdder(folder: folder).add(.command, named: name, dryRun: false)
            } throws: { error in
                guard case .invalidName? = error as? BoilerError else { return false }
                return true
            }
        }
        #expect(throws: BoilerError.self) { try PartAdder(folder: folder).add(.resource, named: "Tag", dryRun: false) }
        #expect(TemporaryFolder.listing(of: folder) == before)
        #expect(
            try read(folder, Self.wiring)
                == (try TemplateStore().render(
                    ServerPartTemplates.parts(module: "Notes", routes: [], services: []), values: [:])).contents)
    }

    /// Expects `add` to refuse the part with `.invalidResource`, the reason containing `because`.
    func expectRefused(
        _ kind: AddPart.Kind, _ name: String, in folder: URL, because: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(sourceLocation: sourceLocation) {
            try PartAdder(folder: folder).add(kind, named: name, dryRun: false)
        } throws: { error in
            guard case .invalidResource(_, let value, let reason)? = error as? BoilerError else { return false }
            return value == name && reason.contains(because)
        }
    }

    @Test("a part named like an earlier part's type is refused, ignoring case")
    func earlierPart() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        _ = try PartAdder(folder: folder).add(.command, named: "ArchiveNote", dryRun: false)
        _ = try PartAdder(folder: folder).add(.service, named: "Sync", dryRun: false)
        let before = TemporaryFolder.listing(of: folder)
        expectRefused(.model, "Archivenote", in: folder, because: "already has a type named ArchiveNote")
        expectRefused(.command, "SyncService", in: folder, because: "already has a type named SyncService")
        #expect(TemporaryFolder.listing(of: folder) == before)
    }

    @Test("a part named like a Swift, Foundation or kit type is refused: the project would not compile")
    func reservedTypes() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        let before = TemporaryFolder.listing(of: folder)
        expectRefused(.command, "Date", in: folder, because: "type named Date")
        expectRefused(.model, "Bus", in: folder, because: "type named Bus")
        expectRefused(.command, "Self", in: folder, because: "type named Self")
        // `AppService: AppService` would inherit from itself.
        expectRefused(.service, "App", in: folder, because: "type named AppService")
        #expect(TemporaryFolder.listing(of: folder) == before)
    }

    @Test("a route whose path is served already (the notes, the health check, a resource, a route) is refused")
    func servedPaths() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        _ = try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        _ = try PartAdder(folder: folder).add(.route, named: "UserStats", dryRun: false)
        let before = TemporaryFolder.listing(of: folder)
        expectRefused(.route, "Notes", in: folder, because: "/notes is served already, by NoteRoutes")
        expectRefused(.route, "Health", in: folder, because: "/health is served already")
        expectRefused(.route, "Tags", in: folder, because: "/tags is served already, by TagRoutes")
        #expect(TemporaryFolder.listing(of: folder) == before)
        // The same words as another path's, as another kind of part, are fine.
        _ = try PartAdder(folder: folder).add(.command, named: "Health", dryRun: false)
    }

    @Test("--dry-run lists the part and the machine file and writes nothing")
    func dryRun() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        let before = TemporaryFolder.listing(of: folder)
        let wiring = try read(folder, Self.wiring)
        let outcome = try PartAdder(folder: folder).add(.service, named: "Sync", dryRun: true)
        #expect(outcome.written == [Self.wiring, "Sources/NotesCore/Services/SyncService.swift"])
        #expect(TemporaryFolder.listing(of: folder) == before)
        #expect(try read(folder, Self.wiring) == wiring)
    }
}
