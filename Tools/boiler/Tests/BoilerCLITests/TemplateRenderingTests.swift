import Foundation
import Testing

@testable import BoilerCLI

/// The template files in boiler's bundle, rendered by Mustache: every file of every template
/// renders with the values its plan gives, as plain text, and a template that is not what boiler
/// can render is refused by name instead of writing a file with a hole in it.
@Suite("Template files")
struct TemplateRenderingTests {
    func options(
        _ template: TemplateKind, database: DatabaseKind? = nil, packages: [String]? = nil
    ) throws
        -> ProjectOptions
    {
        var options = ProjectOptions(
            name: try ProjectName("Notes"), template: template, packages: packages, kit: .path("/k"))
        options.database = database
        return options
    }

    @Test("every bundled template file is used by some plan, and every file of a plan renders")
    func everyFileRenders() throws {
        let store = try TemplateStore()
        var used = Set<String>()
        let variants: [ProjectOptions] = [
            try options(.app), try options(.cli), try options(.library), try options(.server),
            try options(.server, database: .postgres), try options(.cli, packages: ["Errors"]),
            try options(.cli, packages: ["Commands"]),
            try options(.library, packages: ["Commands", "EventBus", "Router"]),
        ]
        for variant in variants {
            let scaffolder = try Scaffolder(options: variant)
            for file in ProjectTemplates.files(for: variant) {
                if case .file(let name) = file.source { used.insert("\(name).mustache") }
                let rendered = try store.render(file, values: scaffolder.templateValues)
                #expect(!rendered.contents.contains("{{"), "\(rendered.path) kept a tag")
                #expect(!rendered.path.contains("{"), "\(rendered.path)")
            }
        }
        let parts = PartTemplates.Context(
            part: "Archive", core: "NotesCore", model: "NotesModel", importLine: "Boilerplate")
        let serverPart = ServerPartTemplates.Context(part: "Archive", module: "Notes")
        let partFiles =
            PartTemplates.command(parts) + PartTemplates.route(parts) + PartTemplates.service(parts)
            + PartTemplates.model(parts) + ServerPartTemplates.command(serverPart)
            + ServerPartTemplates.route(serverPart)
            + ServerPartTemplates.service(serverPart)
        // Resources: every field type, optional or not, so that every section of their files renders.
        let spec = try ResourceSpec(
            name: "OrderLine",
            fields: ["name:String", "count:Int", "note:String?", "done:Bool", "due:Date?", "ref:UUID"])
        let names = ResourceTemplates.Names(spec: spec, module: "Notes")
        let resourceFiles =
            ResourceTemplates.server(names) + ResourceTemplates.app(names) + ResourceTemplates.appSynced(names)
            + [ResourceTemplates.serverWiring(module: "Notes", resources: [spec])]
        for file in partFiles + resourceFiles {
            if case .file(let name) = file.source { used.insert("\(name).mustache") }
            let rendered = try store.render(file, values: [:])
            #expect(!rendered.contents.contains("{{"), "\(rendered.path) kept a tag")
        }
        let bundled = Set(store.names.flatMap { store.files(of: $0) })
        #expect(bundled.subtracting(used).isEmpty, "bundled but never rendered: \(bundled.subtracting(used).sorted())")
        #expect(used.subtracting(bundled).isEmpty, "rendered but not bundled: \(used.subtracting(bundled).sorted())")
    }

    @Test("values are written as they are: nothing is HTML-escaped")
    func plainText() throws {
        let text = try TemplateStore.render(
            #"let a = "{{value}}""#, context: ["value": .text(#"<a & "b">"#)], origin: "test")
        #expect(text == #"let a = "<a & "b">""#)
    }

    @Test("sections choose by flag and repeat over lists; standalone section lines leave no blank line")
    func sections() throws {
        let template = "a\n{{#on}}\nyes\n{{/on}}\n{{^on}}\nno\n{{/on}}\n{{#items}}\n- {{name}}\n{{/items}}\nz\n"
        let on = try TemplateStore.render(
            template, context: ["on": .flag(true), "items": .list([["name": .text("x")], ["name": .text("y")]])],
            origin: "test")
        #expect(on == "a\nyes\n- x\n- y\nz\n")
        let off = try TemplateStore.render(template, context: ["on": .flag(false), "items": .list([])], origin: "test")
        #expect(off == "a\nno\nz\n")
    }

    @Test("a template naming a value boiler does not give is refused, naming the file and the value")
    func unknownValue() {
        #expect {
            try TemplateStore.render("Hello {{nobody}}", context: ["Name": .text("Notes")], origin: "greeting.mustache")
        } throws: { error in
            guard case .invalidTemplate(let path, let reason)? = error as? BoilerError else { return false }
            return path == "greeting.mustache" && reason.contains(#""nobody""#)
        }
        // A hostile copy's tag of 1 MB does not become a 1 MB message.
        let huge = String(repeating: "n", count: 1 << 20)
        #expect {
            try TemplateStore.render("{{\(huge)}}", context: [:], origin: "huge.mustache")
        } throws: { error in
            guard let error = error as? BoilerError, case .invalidTemplate = error else { return false }
            return error.message.utf8.count < 1_000
        }
    }

    @Test("a template Mustache cannot parse is refused with its line")
    func unparsable() {
        #expect {
            try TemplateStore.render("one\n{{#open}}\nnever closed\n", context: ["open": .flag(true)], origin: "bad")
        } throws: { error in
            guard case .invalidTemplate(let path, let reason)? = error as? BoilerError else { return false }
            return path == "bad" && reason.contains("line")
        }
    }

    @Test("the postgres option picks its database file and adds its products through a section")
    func postgresOption() throws {
        let sqlite = try Scaffolder(options: try options(.server)).plan(in: URL(fileURLWithPath: "/tmp/none"))
        let postgres = try Scaffolder(options: try options(.server, database: .postgres))
            .plan(in: URL(fileURLWithPath: "/tmp/none"))
        func text(_ plan: ScaffoldPlan, _ path: String) -> String {
            plan.files.first { $0.path == path }?.contents ?? ""
        }
        #expect(!text(sqlite, "Package.swift").contains("StoragePostgres"))
        #expect(text(postgres, "Package.swift").contains(#".product(name: "StoragePostgresTesting", package: "k")"#))
        #expect(text(postgres, "Sources/NotesCore/NotesDatabase.swift").contains("PostgresRecordBackend"))
        #expect(!text(sqlite, "Sources/NotesCore/NotesDatabase.swift").contains("PostgresRecordBackend"))
    }
}
