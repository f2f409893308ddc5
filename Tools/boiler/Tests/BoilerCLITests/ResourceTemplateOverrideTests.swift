import Foundation
import Testing

@testable import BoilerCLI

/// `boiler add resource` renders its files from the `resource` (server) and `app-resource`
/// (app) template folders, so a project's copies under `.boiler/templates/` reach it as they
/// reach the other parts; a hostile copy is refused with a typed error and nothing is written.
@Suite("Template overrides reach boiler add resource")
struct ResourceTemplateOverrideTests {
    static let routesTemplate = ".boiler/templates/resource/Sources/Core/HTTP/ResourceRoutes.swift.mustache"

    func project(_ template: TemplateKind, in temp: TemporaryFolder) throws -> URL {
        let options = ProjectOptions(
            name: try ProjectName("Notes"), template: template, packages: nil, kit: .path("/k"))
        let folder = temp.url.appendingPathComponent("Notes")
        _ = try PlanWriter().write(try Scaffolder(options: options).plan(in: folder), force: false)
        return folder
    }

    func write(_ data: Data, to path: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func read(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("a server project's copy of the routes template is rendered with the resource's fields; the rest is boiler's")
    func serverCopy() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        let copy = "// {{type}} at /{{path}}:{{#fields}} {{name}}: {{swiftType}}{{^last}},{{/last}}{{/fields}}\n"
        try write(Data(copy.utf8), to: Self.routesTemplate, in: folder)
        _ = try ResourceAdder(folder: folder).add(
            "OrderLine", fields: ["name:String", "count:Int", "note:String?"], dryRun: false)
        #expect(
            try read(folder, "Sources/NotesCore/HTTP/OrderLineRoutes.swift")
                == "// OrderLine at /order-lines: name: String, count: Int, note: String?\n")
        // The files it does not replace are boiler's, and the record holds what was written.
        #expect(try read(folder, "Sources/NotesCore/OrderLineDomain.swift").contains("public struct OrderLineDomain"))
        let record = try ProjectRecord.read(in: folder)
        #expect(
            record.files["Sources/NotesCore/HTTP/OrderLineRoutes.swift"]
                == ProjectRecord.hash("// OrderLine at /order-lines: name: String, count: Int, note: String?\n"))
    }

    @Test("the machine file that wires resources in may be replaced too, and lists every resource")
    func wiringCopy() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        try write(
            Data("// {{module}}:{{#resources}} {{type}}@{{path}}{{/resources}}\n".utf8),
            to: ".boiler/templates/resource/Sources/Core/Generated/_Resources.swift.mustache", in: folder)
        _ = try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        // The copy was written after `new`, so the machine file still hashes as boiler wrote it.
        #expect(try read(folder, "Sources/NotesCore/Generated/_Resources.swift") == "// Notes: Tag@tags\n")
        _ = try ResourceAdder(folder: folder).add("Label", fields: ["title:String"], dryRun: false)
        #expect(
            try read(folder, "Sources/NotesCore/Generated/_Resources.swift") == "// Notes: Tag@tags Label@labels\n")
    }

    @Test("an app project's copy of the list model is rendered for its resources")
    func appCopy() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        try write(
            Data("// {{type}}List of {{words}} records\n".utf8),
            to: ".boiler/templates/app-resource/Sources/Core/Model/ResourceList.swift.mustache", in: folder)
        _ = try ResourceAdder(folder: folder).add("OrderLine", fields: ["name:String"], dryRun: false)
        #expect(
            try read(folder, "Sources/NotesCore/Model/OrderLineList.swift")
                == "// OrderLineList of order line records\n")
        #expect(try read(folder, "Sources/NotesCore/Model/OrderLine.swift").contains("public struct OrderLine:"))
    }

    @Test("Note's events and every resource's come from one template file: a copy of it changes both")
    func noteSharesTheGenerator() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        try write(
            Data("// {{type}}Created carries {{one}}\n".utf8),
            to: ".boiler/templates/resource/Sources/Core/Model/ResourceEvents.swift.mustache", in: folder)
        _ = try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        #expect(try read(folder, "Sources/NotesCore/Model/TagEvents.swift") == "// TagCreated carries tag\n")
        let options = ProjectOptions(name: try ProjectName("Notes"), template: .server, packages: nil, kit: .path("/k"))
        let plan = try Scaffolder(options: options).plan(in: folder, overrides: folder)
        #expect(
            plan.files.first { $0.path == "Sources/NotesCore/Model/NoteEvents.swift" }?.contents
                == "// NoteCreated carries note\n")
    }

    @Test(
        "Note's commands, domain, routes, events and their tests come from the resource templates, with Note's values")
    func noteIsAResource() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        let copies = [
            "Sources/Core/Commands/ResourceCommands.swift": "Sources/NotesCore/Commands/NoteCommands.swift",
            "Sources/Core/ResourceDomain.swift": "Sources/NotesCore/NoteDomain.swift",
            "Sources/Core/HTTP/ResourceRoutes.swift": "Sources/NotesCore/HTTP/NoteRoutes.swift",
            "Sources/Core/Model/ResourceEvents.swift": "Sources/NotesCore/Model/NoteEvents.swift",
            "Tests/CoreTests/ResourceRoutesTests.swift": "Tests/NotesCoreTests/NoteRoutesTests.swift",
            "Tests/CoreTests/ResourceCommandTests.swift": "Tests/NotesCoreTests/NoteCommandTests.swift",
            "Tests/CoreTests/ResourceSyncTests.swift": "Tests/NotesCoreTests/NoteSyncTests.swift",
        ]
        let copy =
            "// {{type}} {{notFoundCase}}({{notFoundResource}}id:) {{maximumTextLength}} {{domain}}:"
            + "{{#fields}} {{name}}{{#hasDefault}}={{defaultLiteral}}{{/hasDefault}}{{/fields}};"
            + "{{#boolFilters}} ?{{name}}{{/boolFilters}}\n"
        for template in copies.keys {
            try write(Data(copy.utf8), to: ".boiler/templates/resource/\(template).mustache", in: folder)
        }
        let options = ProjectOptions(name: try ProjectName("Notes"), template: .server, packages: nil, kit: .path("/k"))
        let plan = try Scaffolder(options: options).plan(in: folder, overrides: folder)
        for path in copies.values.sorted() {
            // Note keeps its error case and constant, and its tests reach it as the server's domain.
            #expect(
                plan.files.first { $0.path == path }?.contents
                    == "// Note noteNotFound(id:) maximumNoteLength domain: text pinned=false; ?pinned\n", "\(path)")
        }
        // The entity is not among them: Note's type is designed (ModelGen), with its own file.
        #expect(
            plan.files.first { $0.path == "Sources/NotesCore/Model/Note.swift" }?.contents.contains("extension Note")
                == true)
        _ = try ResourceAdder(folder: folder).add("Tag", fields: ["name:String", "done:Bool"], dryRun: false)
        #expect(
            try read(folder, "Sources/NotesCore/HTTP/TagRoutes.swift")
                == "// Tag notFound(\"tag\", id:) maximumTagTextLength resources.tags: name done; ?done\n")
    }

    @Test("the app's Note commands and their tests come from the app resource templates, changing the app's model")
    func appNoteIsAResource() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        let copies = [
            "Sources/Core/Commands/ResourceCommands.swift": "Sources/NotesCore/Commands/NoteCommands.swift",
            "Tests/CoreTests/ResourceCommandsTests.swift": "Tests/NotesCoreTests/NoteCommandsTests.swift",
        ]
        let copy =
            "// {{type}} in {{model}}.{{items}}:{{#fields}} {{name}}{{#hasDefault}}={{defaultLiteral}}{{/hasDefault}}{{/fields}}\n"
        for template in copies.keys {
            try write(Data(copy.utf8), to: ".boiler/templates/app-resource/\(template).mustache", in: folder)
        }
        let options = ProjectOptions(name: try ProjectName("Notes"), template: .app, packages: nil, kit: .path("/k"))
        let plan = try Scaffolder(options: options).plan(in: folder, overrides: folder)
        for path in copies.values.sorted() {
            #expect(
                plan.files.first { $0.path == path }?.contents == "// Note in NotesModel.notes: text pinned=false\n",
                "\(path)")
        }
        // The designed entity and the app's model are the app's own files, not a resource's.
        #expect(!plan.files.contains { $0.path.hasSuffix("NoteList.swift") })
        _ = try ResourceAdder(folder: folder).add("Tag", fields: ["name:String"], dryRun: false)
        #expect(try read(folder, "Sources/NotesCore/Commands/TagCommands.swift") == "// Tag in TagList.items: name\n")
    }

    /// Expects adding a resource to fail with an error `matches` accepts, leaving the project as it was.
    func expectRefused(
        in folder: URL, sourceLocation: SourceLocation = #_sourceLocation, _ matches: (BoilerError) -> Bool
    ) {
        let before = TemporaryFolder.listing(of: folder)
        let record = try? Data(contentsOf: folder.appendingPathComponent(ProjectRecord.fileName))
        #expect(sourceLocation: sourceLocation) {
            try ResourceAdder(folder: folder).add("Tag", fields: ["name:String", "done:Bool"], dryRun: false)
        } throws: { error in
            guard let error = error as? BoilerError else { return false }
            return matches(error)
        }
        #expect(TemporaryFolder.listing(of: folder) == before, sourceLocation: sourceLocation)
        #expect(
            (try? Data(contentsOf: folder.appendingPathComponent(ProjectRecord.fileName))) == record,
            sourceLocation: sourceLocation)
    }

    @Test(
        "a hostile copy of a resource template is refused and nothing is written: link out, 10 MB, not UTF-8, bad Mustache, unknown value"
    )
    func hostileCopies() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        let copy = folder.appendingPathComponent(Self.routesTemplate)

        let secret = temp.url.appendingPathComponent("secret.txt")
        try Data("not yours".utf8).write(to: secret)
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: copy, withDestinationURL: secret)
        expectRefused(in: folder) { if case .outsideProject = $0 { true } else { false } }
        try FileManager.default.removeItem(at: copy)

        try write(Data(repeating: UInt8(ascii: "x"), count: 10_000_000), to: Self.routesTemplate, in: folder)
        expectRefused(in: folder) {
            if case .invalidTemplate(_, let reason) = $0 { reason.contains("10000000 bytes") } else { false }
        }

        try write(Data([0x2F, 0x2F, 0xFF, 0xFE, 0x0A]), to: Self.routesTemplate, in: folder)
        expectRefused(in: folder) {
            if case .invalidTemplate(let path, let reason) = $0 {
                path == Self.routesTemplate && reason.contains("UTF-8")
            } else {
                false
            }
        }

        try write(Data("{{#fields}}{{name}}\n".utf8), to: Self.routesTemplate, in: folder)
        expectRefused(in: folder) {
            if case .invalidTemplate(let path, let reason) = $0 {
                path == Self.routesTemplate && reason.contains("line")
            } else {
                false
            }
        }

        try write(Data("{{#fields}}{{colour}}{{/fields}}\n".utf8), to: Self.routesTemplate, in: folder)
        expectRefused(in: folder) {
            if case .invalidTemplate(let path, let reason) = $0 {
                path == Self.routesTemplate && reason.contains(#""colour""#)
            } else {
                false
            }
        }
    }
}
