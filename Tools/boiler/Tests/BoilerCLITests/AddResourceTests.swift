import ArgumentParser
import Foundation
import Testing

@testable import BoilerCLI

@Suite("boiler add resource")
struct AddResourceTests {
    func project(
        _ template: TemplateKind, database: DatabaseKind? = nil, packages: [String]? = nil, in temp: TemporaryFolder
    ) throws -> URL {
        let options = ProjectOptions(
            name: try ProjectName("Notes"), template: template, packages: packages, kit: .path("/k"),
            database: database)
        let folder = temp.url.appendingPathComponent("Notes")
        _ = try PlanWriter().write(try Scaffolder(options: options).plan(in: folder), force: false)
        return folder
    }

    func read(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    static let serverFiles = [
        "Sources/NotesCore/Commands/TagCommands.swift", "Sources/NotesCore/Generated/_Resources.swift",
        "Sources/NotesCore/HTTP/TagRoutes.swift", "Sources/NotesCore/HTTP/TagSyncRoutes.swift",
        "Sources/NotesCore/Model/Tag.swift",
        "Sources/NotesCore/Model/TagEvents.swift", "Sources/NotesCore/TagDomain.swift",
        "Tests/NotesCoreTests/TagCommandTests.swift", "Tests/NotesCoreTests/TagRoutesTests.swift",
        "Tests/NotesCoreTests/TagSyncTests.swift",
    ]

    @Test("a server project gets the entity, commands, domain, routes and tests, wired through the machine file")
    func server() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        let outcome = try ResourceAdder(folder: folder).add(
            "Tag", fields: ["name:String", "count:Int", "note:String?"], dryRun: false)
        #expect(outcome.written == Self.serverFiles)
        #expect(outcome.conflicts.isEmpty)
        let entity = try read(folder, "Sources/NotesCore/Model/Tag.swift")
        #expect(entity.contains("public struct Tag: Codable, Sendable, Hashable, Identifiable, RevisionedRecord"))
        // Records saved before revisions existed still read, as revision 0.
        #expect(entity.contains("self.revision = try container.decodeIfPresent(Int.self, forKey: .revision) ?? 0"))
        #expect(entity.contains("self.note = try container.decodeIfPresent(String.self, forKey: .note)"))
        #expect(entity.contains("self.count = try container.decode(Int.self, forKey: .count)"))
        #expect(entity.contains("public var note: String?"))
        #expect(entity.contains(#"QueryField(\.count, "count")"#))
        let routes = try read(folder, "Sources/NotesCore/HTTP/TagRoutes.swift")
        #expect(routes.contains(#"router.group("tags")"#))
        #expect(routes.contains(#"containing: query["q"].map(String.init)"#))
        let wiring = try read(folder, "Sources/NotesCore/Generated/_Resources.swift")
        #expect(wiring.contains("public let tags: TagDomain"))
        #expect(wiring.contains(#"database.store(of: Tag.self, table: "tags")"#))
        #expect(wiring.contains("TagRoutes.add(to: router, domain: tags)"))
        #expect(wiring.contains("sync.serve(try await tags.syncRoutes())"))
        let record = try ProjectRecord.read(in: folder)
        #expect(record.resources?.map(\.name) == ["Tag"])
        for path in Self.serverFiles { #expect(record.files[path] == ProjectRecord.hash(try read(folder, path))) }
    }

    @Test("a second resource keeps the first in the wiring, in the order they were added")
    func second() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        _ = try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        let outcome = try ResourceAdder(folder: folder).add(
            "Category", fields: ["title:String", "archived:Bool"], dryRun: false)
        #expect(outcome.written.contains("Sources/NotesCore/Generated/_Resources.swift"))
        let wiring = try read(folder, "Sources/NotesCore/Generated/_Resources.swift")
        let tags = try #require(wiring.range(of: "TagRoutes.add"))
        let categories = try #require(wiring.range(of: "CategoryRoutes.add(to: router, domain: categories)"))
        #expect(tags.lowerBound < categories.lowerBound)
        #expect(try read(folder, "Sources/NotesCore/HTTP/CategoryRoutes.swift").contains(#"query["archived"]"#))
        #expect(try ProjectRecord.read(in: folder).resources?.map(\.name) == ["Tag", "Category"])
    }

    @Test("an edited wiring file is merged three ways: the user's line stays and the resource is wired in")
    func editedWiring() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        // As boiler new writes it, with the bases a merge starts from.
        let folder = temp.url.appendingPathComponent("Notes")
        let options = ProjectOptions(name: try ProjectName("Notes"), template: .server, packages: nil, kit: .path("/k"))
        _ = try PlanWriter().write(
            ProjectBase.adding(to: try Scaffolder(options: options).plan(in: folder)), force: false)
        let wiringPath = "Sources/NotesCore/Generated/_Resources.swift"
        let edited = try read(folder, wiringPath) + "// mine\n"
        try Data(edited.utf8).write(to: folder.appendingPathComponent(wiringPath))
        let outcome = try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        #expect(outcome.written.contains(wiringPath))
        #expect(outcome.conflicts.isEmpty)
        #expect(outcome.plan.entries.first { $0.path == wiringPath }?.action == .merge)
        let wiring = try read(folder, wiringPath)
        #expect(wiring.hasSuffix("// mine\n"))
        #expect(wiring.contains("public let tags: TagDomain"))
        #expect(wiring.contains("TagRoutes.add(to: router, domain: tags)"))
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("Sources/NotesCore/HTTP/TagRoutes.swift").path))
        // A deleted wiring file stays deleted, as boiler update leaves it: the user's decision.
        try FileManager.default.removeItem(at: folder.appendingPathComponent(wiringPath))
        let next = try ResourceAdder(folder: folder).add("Label", fields: ["text:String"], dryRun: false)
        #expect(!next.written.contains(wiringPath))
        #expect(next.plan.entries.first { $0.path == wiringPath }?.action == .keep)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(wiringPath).path))
        #expect(try ProjectRecord.read(in: folder).resources?.map(\.name) == ["Tag", "Label"])
    }

    @Test("an existing file is a conflict (exit 73), and nothing is written")
    func neverOverwrites() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        let path = "Sources/NotesCore/HTTP/TagRoutes.swift"
        try Data("// mine\n".utf8).write(to: folder.appendingPathComponent(path))
        let before = TemporaryFolder.listing(of: folder)
        let recordBefore = try read(folder, ".boiler.json")
        #expect {
            try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        } throws: { error in
            guard case .conflicts(_, let paths)? = error as? BoilerError else { return false }
            return paths == [path] && (error as? BoilerError)?.exitCode == 73
        }
        #expect(try read(folder, path) == "// mine\n")
        #expect(TemporaryFolder.listing(of: folder) == before)
        #expect(try read(folder, ".boiler.json") == recordBefore)
    }

    @Test("a resource that exists already, or one named like a type the project declares, is refused")
    func taken() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        _ = try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        let before = TemporaryFolder.listing(of: folder)
        for name in ["Tag", "TagDomain", "NoteDomain", "NotesError", "CreateNote"] {
            #expect(throws: BoilerError.self, "\(name)") {
                try ResourceAdder(folder: folder).add(name, fields: ["name:String"], dryRun: false)
            }
        }
        #expect(TemporaryFolder.listing(of: folder) == before)
    }

    @Test("--dry-run lists the plan and writes nothing")
    func dryRun() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        let before = TemporaryFolder.listing(of: folder)
        let recordBefore = try read(folder, ".boiler.json")
        let outcome = try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: true)
        #expect(outcome.written == Self.serverFiles)
        #expect(TemporaryFolder.listing(of: folder) == before)
        #expect(try read(folder, ".boiler.json") == recordBefore)
    }

    @Test("a PostgreSQL server project opens the resource's table through the same database")
    func postgres() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, database: .postgres, in: temp)
        _ = try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        let database = try read(folder, "Sources/NotesCore/NotesDatabase.swift")
        #expect(database.contains("PostgresRecordBackend<Record>(url: url, table: table, changeFeed: true)"))
        #expect(
            try read(folder, "Sources/NotesCore/Generated/_Resources.swift").contains("database.store(of: Tag.self"))
    }

    @Test("an app project gets the entity, a list model, commands through the kit and tests")
    func app() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        let outcome = try ResourceAdder(folder: folder).add(
            "Label", fields: ["name:String", "count:Int", "due:Date?"], dryRun: false)
        #expect(
            outcome.written == [
                "Sources/NotesCore/Commands/LabelCommands.swift", "Sources/NotesCore/Model/Label.swift",
                "Sources/NotesCore/Model/LabelList.swift", "Tests/NotesCoreTests/LabelCommandsTests.swift",
            ])
        #expect(outcome.hint?.contains("ModelStore(LabelList())") == true)
        let commands = try read(folder, "Sources/NotesCore/Commands/LabelCommands.swift")
        #expect(commands.contains("public struct CreateLabel: Command"))
        #expect(commands.contains("public func execute(_ model: inout LabelList) throws -> Label"))
        #expect(
            try read(folder, "Tests/NotesCoreTests/LabelCommandsTests.swift").contains("CommandRunner(store: store)"))
        #expect(try ProjectRecord.read(in: folder).resources?.map(\.name) == ["Label"])
    }

    @Test("an app's model added with boiler add model is an entity a resource may not take")
    func appModelTaken() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        _ = try PartAdder(folder: folder).add(.model, named: "Tag", dryRun: false)
        #expect {
            try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        } throws: { error in
            (error as? BoilerError)?.message.contains("already has an entity or resource named Tag") == true
        }
    }

    @Test("library and CLI projects take no resources; boiler add command refuses fields")
    func refusals() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.library, packages: ["Errors"], in: temp)
        let before = TemporaryFolder.listing(of: folder)
        #expect {
            try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        } throws: { error in
            (error as? BoilerError)?.message.contains("--template server or app") == true
        }
        #expect(TemporaryFolder.listing(of: folder) == before)
        #expect(throws: BoilerError.notAProject(folder: temp.url.path)) {
            try ResourceAdder(folder: temp.url).add("Tag", fields: ["name:String"], dryRun: false)
        }
    }

    @Test("a resource in .boiler.json that boiler would refuse makes the record untrustworthy (exit 65)")
    func hostileRecord() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        _ = try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        let recordURL = folder.appendingPathComponent(".boiler.json")
        let record = try read(folder, ".boiler.json")
        let hostile = record.replacingOccurrences(of: #""name" : "Tag""#, with: #""name" : "..\/..\/Evil""#)
        #expect(hostile != record)
        try Data(hostile.utf8).write(to: recordURL)
        let before = TemporaryFolder.listing(of: temp.url)
        #expect {
            try ResourceAdder(folder: folder).add("Label", fields: ["name:String"], dryRun: false)
        } throws: { error in
            guard case .invalidRecord(_, let field, _)? = error as? BoilerError else { return false }
            return field == "resources" && (error as? BoilerError)?.exitCode == 65
        }
        #expect(TemporaryFolder.listing(of: temp.url) == before)
    }

    @Test("a symbolic link that leads out of the project is refused, and nothing is written")
    func symlinkOut() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        let outside = temp.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let http = folder.appendingPathComponent("Sources/NotesCore/HTTP")
        try FileManager.default.moveItem(at: http, to: outside.appendingPathComponent("HTTP"))
        try FileManager.default.createSymbolicLink(at: http, withDestinationURL: outside.appendingPathComponent("HTTP"))
        let before = TemporaryFolder.listing(of: temp.url)
        #expect {
            try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        } throws: { error in
            (error as? BoilerError)?.exitCode == 73
        }
        #expect(TemporaryFolder.listing(of: temp.url) == before)
    }

    @Test("the command line: fields follow the name, and only a resource takes them")
    func commandLine() throws {
        let parsed = try Boiler.parseAsRoot(["add", "resource", "Tag", "name:String", "note:String?", "--dry-run"])
        let add = try #require(parsed as? AddPart)
        #expect(add.kind == .resource && add.name == "Tag" && add.fields == ["name:String", "note:String?"])
        #expect(add.dryRun)
        #expect(AddPart.configuration.discussion.contains("boiler add resource Tag name:String"))
    }
}
