import ArgumentParser
import Foundation
import Testing

@testable import BoilerCLI

/// `boiler add resource <Name> … --synced`: an app project's resource kept in a synced record
/// store and synced with the same resource of a server project.
@Suite("boiler add resource --synced")
struct SyncedResourceTests {
    func project(_ template: TemplateKind, packages: [String]? = nil, in temp: TemporaryFolder) throws -> URL {
        let options = ProjectOptions(
            name: try ProjectName("Notes"), template: template, packages: packages, kit: .path("/k"))
        let folder = temp.url.appendingPathComponent("Notes")
        _ = try PlanWriter().write(
            try ProjectBase.adding(to: Scaffolder(options: options).plan(in: folder)), force: false)
        return folder
    }

    func read(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    /// As `boiler add resource … --synced` does.
    @discardableResult
    func addSynced(_ name: String, _ fields: [String], in folder: URL) throws -> ResourceAdder.Outcome {
        try ResourceAdder(folder: folder).add(name, fields: fields, synced: true, dryRun: false)
    }

    static let files = [
        "Package.swift", "Sources/NotesCore/Commands/TagCommands.swift", "Sources/NotesCore/Generated/_Parts.swift",
        "Sources/NotesCore/Model/Tag.swift", "Sources/NotesCore/Services/TagSyncService.swift",
        "Tests/NotesCoreTests/TagCommandsTests.swift", "Tests/NotesCoreTests/TagSyncServiceTests.swift",
    ]

    @Test("an app project gets a revisioned entity, commands through the synced store, a sync service and its wiring")
    func app() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        #expect(!(try read(folder, "Package.swift")).contains("BoilerplateSync"))
        let outcome = try addSynced("Tag", ["name:String", "count:Int", "note:String?"], in: folder)
        #expect(outcome.written == Self.files)
        #expect(outcome.conflicts.isEmpty)
        #expect(outcome.hint?.contains("NOTES_SYNC_URL") == true)
        #expect(outcome.hint?.contains("TagSyncService.name") == true)

        let entity = try read(folder, "Sources/NotesCore/Model/Tag.swift")
        #expect(entity.contains("public struct Tag: Codable, Sendable, Hashable, Identifiable, RevisionedRecord"))
        #expect(entity.contains("public var revision = 0"))
        #expect(entity.contains("self.note = try container.decodeIfPresent(String.self, forKey: .note)"))
        let commands = try read(folder, "Sources/NotesCore/Commands/TagCommands.swift")
        #expect(commands.contains("public func execute(on store: SyncedRecordStore<Tag>) async throws -> Tag"))
        #expect(commands.contains("try await store.insert(created)"))
        #expect(!commands.contains("inout"))
        let service = try read(folder, "Sources/NotesCore/Services/TagSyncService.swift")
        #expect(service.contains("public final class TagSyncService: AppService"))
        #expect(service.contains(#"public static let urlKey = "NOTES_SYNC_URL""#))
        #expect(service.contains(#"public static let path = "sync/tags""#))
        #expect(service.contains(#"folder.appendingPathComponent("tags.sqlite"), table: "tags")"#))
        #expect(
            try read(folder, "Sources/NotesCore/Generated/_Parts.swift").contains(
                "try TagSyncService.register(in: self)"))
        #expect(
            try read(folder, "Package.swift").contains(#".product(name: "BoilerplateSync", package: "k")"#))

        let record = try ProjectRecord.read(in: folder)
        #expect(record.resources?.map(\.name) == ["Tag"])
        #expect(record.resources?.first?.synced == true)
        #expect(try read(folder, ".boiler.json").contains(#""synced" : true"#))
        for path in Self.files {
            #expect(record.files[path] == ProjectRecord.hash(try read(folder, path)), "\(path)")
            // The base boiler update merges against is what was written.
            #expect(try read(folder, ProjectBase.path(of: path)) == (try read(folder, path)), "\(path)")
        }
    }

    @Test("a plain app resource leaves Package.swift alone and records no synced flag")
    func plainResourceUnchanged() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        let package = try read(folder, "Package.swift")
        let outcome = try ResourceAdder(folder: folder).add("Label", fields: ["name:String"], dryRun: false)
        #expect(!outcome.written.contains("Package.swift"))
        #expect(try read(folder, "Package.swift") == package)
        #expect(!(try read(folder, ".boiler.json")).contains("synced"))
    }

    @Test("--synced in a server, CLI or library project is refused naming the flag and the kind; nothing is written")
    func wrongProjectKind() throws {
        for (template, packages) in [(TemplateKind.server, [String]?.none), (.cli, nil), (.library, ["Errors"])] {
            let temp = try TemporaryFolder()
            defer { temp.remove() }
            let folder = try project(template, packages: packages, in: temp)
            let before = TemporaryFolder.listing(of: temp.url)
            #expect {
                try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], synced: true, dryRun: false)
            } throws: { error in
                guard case .invalidOption(let option, let value, _)? = error as? BoilerError else { return false }
                return option == "synced" && value == template.rawValue && (error as? BoilerError)?.exitCode == 64
                    && (error as? BoilerError)?.message.contains("--synced '\(template.rawValue)'") == true
            }
            #expect(TemporaryFolder.listing(of: temp.url) == before, "\(template)")
        }
    }

    @Test("adding the synced resource again, or a name that is hostile or taken, is refused; nothing is written")
    func refusedNames() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        try addSynced("Tag", ["name:String"], in: folder)
        let before = TemporaryFolder.listing(of: temp.url)
        let snapshot = try read(folder, ".boiler.json")
        let hostile = [
            "Tag", "tag", "../Evil", "Tag\nX", "{{type}}", String(repeating: "A", count: 10 << 20), "Note",
            "NotesModel",
        ]
        for name in hostile {
            #expect(throws: BoilerError.self, "\(name.prefix(20))") {
                try ResourceAdder(folder: folder).add(name, fields: ["name:String"], synced: true, dryRun: false)
            }
        }
        #expect(TemporaryFolder.listing(of: temp.url) == before)
        #expect(try read(folder, ".boiler.json") == snapshot)
    }

    @Test("a service named like the resource's sync service is a collision, refused before anything is written")
    func serviceCollision() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        _ = try PartAdder(folder: folder).add(.service, named: "TagSync", dryRun: false)
        let before = TemporaryFolder.listing(of: temp.url)
        #expect {
            try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], synced: true, dryRun: false)
        } throws: { error in
            guard case .invalidResource(_, let value, let reason)? = error as? BoilerError else { return false }
            return value == "Tag" && reason.contains("TagSyncService") && (error as? BoilerError)?.exitCode == 64
        }
        #expect(TemporaryFolder.listing(of: temp.url) == before)
        // And the other way round: the resource first, then the service.
        let other = try TemporaryFolder()
        defer { other.remove() }
        let second = try project(.app, in: other)
        try addSynced("Tag", ["name:String"], in: second)
        #expect(throws: BoilerError.self) {
            try PartAdder(folder: second).add(.service, named: "TagSync", dryRun: false)
        }
    }

    @Test("an edited Package.swift is merged three ways: the user's line stays and BoilerplateSync is added")
    func editedPackage() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        let edited = try read(folder, "Package.swift") + "// mine\n"
        try Data(edited.utf8).write(to: folder.appendingPathComponent("Package.swift"))
        let outcome = try addSynced("Tag", ["name:String"], in: folder)
        #expect(outcome.written.contains("Package.swift"))
        #expect(outcome.written.contains("Sources/NotesCore/Services/TagSyncService.swift"))
        #expect(outcome.conflicts.isEmpty)
        #expect(outcome.plan.entries.first { $0.path == "Package.swift" }?.action == .merge)
        let merged = try read(folder, "Package.swift")
        #expect(merged.hasSuffix("// mine\n"))
        #expect(merged.contains(#".product(name: "BoilerplateSync""#))
        // The base is the new rendering, so the next update keeps the user's line without asking.
        let plan = try UpdatePlanner(folder: folder, engine: .builtIn).plan(try ProjectRecord.read(in: folder))
        #expect(plan.entries.first { $0.path == "Package.swift" }?.action == .keep)
    }

    @Test("a synced resource in a server project's record makes the record untrustworthy (exit 65)")
    func hostileRecord() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        _ = try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        var record = try ProjectRecord.read(in: folder)
        record.resources?[0].synced = true
        try Data(record.json.utf8).write(to: folder.appendingPathComponent(ProjectRecord.fileName))
        #expect {
            try ResourceAdder(folder: folder).add("Label", fields: ["name:String"], dryRun: false)
        } throws: { error in
            guard case .invalidRecord(_, let field, _)? = error as? BoilerError else { return false }
            return field == "resources" && (error as? BoilerError)?.exitCode == 65
        }
    }

    @Test("boiler update renders a synced resource as add did: nothing to do, and later parts keep its wiring")
    func update() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        try addSynced("Tag", ["name:String"], in: folder)
        _ = try PartAdder(folder: folder).add(.route, named: "Archive", dryRun: false)
        let parts = try read(folder, "Sources/NotesCore/Generated/_Parts.swift")
        #expect(parts.contains("try TagSyncService.register(in: self)"))
        #expect(parts.contains("try ArchiveRoutes.register(on: router)"))

        let plan = try UpdatePlanner(folder: folder, engine: .builtIn).plan(try ProjectRecord.read(in: folder))
        let busy = plan.entries.filter { $0.action != .unchanged }
        #expect(busy.isEmpty, "\(busy)")
        #expect(
            try Update.update(folder, dryRun: false, force: false, adopt: false, console: Console(quiet: true)).isEmpty)
    }

    @Test("--dry-run --synced lists the files, Package.swift and _Parts.swift among them, and writes nothing")
    func dryRun() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        let before = TemporaryFolder.listing(of: temp.url)
        let package = try read(folder, "Package.swift")
        let outcome = try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], synced: true, dryRun: true)
        #expect(outcome.written == Self.files)
        #expect(TemporaryFolder.listing(of: temp.url) == before)
        #expect(try read(folder, "Package.swift") == package)
    }

    @Test("an app's README explains --synced and its URL variable; a server's does not")
    func readme() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let app = try read(try project(.app, in: temp), "README.md")
        #expect(app.contains("## Synced resources"))
        #expect(app.contains("`NOTES_SYNC_URL`"))
        #expect(app.contains("--synced"))
        let other = try TemporaryFolder()
        defer { other.remove() }
        #expect(!(try read(try project(.server, in: other), "README.md")).contains("## Synced resources"))
    }

    @Test("the command line: --synced is a resource's flag only")
    func commandLine() throws {
        let parsed = try Boiler.parseAsRoot(["add", "resource", "Tag", "name:String", "--synced"])
        let add = try #require(parsed as? AddPart)
        #expect(add.kind == .resource && add.synced && add.fields == ["name:String"])
        #expect(AddPart.configuration.discussion.contains("--synced"))
        #expect(AddPart.configuration.discussion.contains("_SYNC_URL"))
    }
}
