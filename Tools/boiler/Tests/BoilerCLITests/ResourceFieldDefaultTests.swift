import Foundation
import Testing

@testable import BoilerCLI

/// `boiler add resource Chore title:String done:Bool=false`: a field may name the value a record
/// takes when its creator leaves the field out. The default becomes Swift source (a parameter
/// default) and JSON (a test's expectation), so it is held to its type and to plain text, and a
/// bad one is refused naming the field; nothing is written.
@Suite("boiler add resource: field defaults")
struct ResourceFieldDefaultTests {
    func project(_ template: TemplateKind, in temp: TemporaryFolder) throws -> URL {
        let options = ProjectOptions(
            name: try ProjectName("Notes"), template: template, packages: nil, kit: .path("/k"))
        let folder = temp.url.appendingPathComponent("Notes")
        _ = try PlanWriter().write(try Scaffolder(options: options).plan(in: folder), force: false)
        return folder
    }

    func read(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("a default of each type that takes one is read, in one canonical spelling")
    func accepted() throws {
        let spec = try ResourceSpec(
            name: "Chore",
            fields: [
                "title:String=Do the dishes", "done:Bool=false", "urgent:Bool=true", "priority:Int=+07",
                "floor:Int=-3", "weight:Double=.5", "scale:Double=2", "ratio:Double=1e3", "memo:String?",
            ])
        #expect(
            spec.fields.map(\.argument) == [
                "title:String=Do the dishes", "done:Bool=false", "urgent:Bool=true", "priority:Int=7", "floor:Int=-3",
                "weight:Double=0.5", "scale:Double=2.0", "ratio:Double=1000.0", "memo:String?",
            ])
        #expect(
            spec.fields.map(\.defaultLiteral) == [
                #""Do the dishes""#, "false", "true", "7", "-3", "0.5", "2.0", "1000.0", nil,
            ])
    }

    @Test(
        "a bad default is refused with exit code 64, naming the field and why",
        arguments: [
            (#"title:String=a"b"#, "holds '\"'"), (#"title:String=a\b"#, "holds '\\'"),
            ("title:String=a`b", "holds '`'"), ("title:String=a{{b", "template tag"),
            ("title:String=}}", "template tag"), ("title:String=", "is blank"), ("title:String=   ", "is blank"),
            ("title:String=a\nb", "printable ASCII only"), ("title:String=caf\u{E9}", "printable ASCII only"),
            ("title:String=" + String(repeating: "a", count: 201), "longer than 200"),
            ("done:Bool=yes", "not a Bool"), ("done:Bool=False", "not a Bool"), ("done:Bool=", "not a Bool"),
            ("count:Int=1.5", "not an Int"), ("count:Int=99999999999999999999", "not an Int"),
            ("count:Int=0x10", "not an Int"), ("weight:Double=nan", "not a finite Double"),
            ("weight:Double=inf", "not a finite Double"), ("weight:Double=1e999", "not a finite Double"),
            ("weight:Double=0x1p3", "not a finite Double"), ("due:Date=now", "a Date field takes no default"),
            ("ref:UUID=6BA7B810-9DAD-11D1-80B4-00C04FD430C8", "a UUID field takes no default"),
            ("memo:String?=x", "an optional field starts as nil"),
        ])
    func refused(argument: String, reason: String) throws {
        do {
            _ = try ResourceSpec(name: "Chore", fields: ["name:String", argument])
            Issue.record("\(argument.debugDescription) was accepted")
        } catch {
            #expect(error.exitCode == 64)
            guard case .invalidResource(let part, let value, let why) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            let field = String(argument.prefix { $0 != ":" })
            #expect(part == "field" && value == argument)
            #expect(why.contains("the default of '\(field)'"), "\(why)")
            #expect(why.contains(reason), "\(why)")
            // The message shows the value escaped: a line break in it cannot forge a line.
            #expect(!error.message.contains("\n"), "\(error.message)")
        }
    }

    @Test("a 10 MB argument is refused by its size before it is looked at")
    func huge() throws {
        let argument = "title:String=" + String(repeating: "a", count: 10_000_000)
        #expect {
            try ResourceSpec(name: "Chore", fields: [argument])
        } throws: { error in
            guard case .invalidResource(_, _, let reason)? = error as? BoilerError else { return false }
            return reason.contains("longer than")
        }
    }

    @Test("a server resource's default is a parameter default, POST's value for a missing field, and tested")
    func server() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        _ = try ResourceAdder(folder: folder).add(
            "Chore", fields: ["title:String", "done:Bool=false", "rank:Int=3", "label:String=Home"], dryRun: false)
        let entity = try read(folder, "Sources/NotesCore/Model/Chore.swift")
        #expect(entity.contains(#"title: String, done: Bool = false, rank: Int = 3, label: String = "Home")"#))
        let commands = try read(folder, "Sources/NotesCore/Commands/ChoreCommands.swift")
        #expect(
            commands.contains(
                #"public init(title: String, done: Bool = false, rank: Int = 3, label: String = "Home", "#))
        let routes = try read(folder, "Sources/NotesCore/HTTP/ChoreRoutes.swift")
        #expect(routes.contains(#"title: try required(input.title, "title"),"#))
        #expect(routes.contains("done: input.done ?? false,"))
        #expect(routes.contains(#"label: input.label ?? "Home"))"#))
        let tests = try read(folder, "Tests/NotesCoreTests/ChoreRoutesTests.swift")
        #expect(tests.contains(##"body(#"{"title": "Milk"}"#)"##))
        #expect(tests.contains(#"#expect(created.label == "Home")"#))
        #expect(tests.contains("func doneFilter()"))
        // Only the fields without a default are required: the 422 test leaves out `title`.
        #expect(tests.contains(##"(#"{}"#, "The field 'title' is required.")"##))
        // The record keeps the default, so `boiler update` renders the same files.
        let record = try ProjectRecord.read(in: folder)
        #expect(
            record.resources?.first?.fields.map(\.argument) == [
                "title:String", "done:Bool=false", "rank:Int=3", "label:String=Home",
            ])
    }

    @Test("an app resource's default is a parameter default of the entity and the create command")
    func app() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.app, in: temp)
        _ = try ResourceAdder(folder: folder).add("Chore", fields: ["title:String", "done:Bool=false"], dryRun: false)
        #expect(try read(folder, "Sources/NotesCore/Model/Chore.swift").contains("done: Bool = false)"))
        #expect(
            try read(folder, "Sources/NotesCore/Commands/ChoreCommands.swift").contains(
                "public init(title: String, done: Bool = false, id: UUID"))
    }

    @Test("a record from before defaults reads; a hand-edited default that add would refuse is refused")
    func record() throws {
        let old = #"{"name": "title", "type": "String", "optional": false}"#
        let field = try JSONDecoder().decode(ResourceSpec.Field.self, from: Data(old.utf8))
        #expect(field.defaultValue == nil)
        // Written without the key, so records without defaults stay byte for byte as they were.
        #expect(!String(decoding: try JSONEncoder().encode(field), as: UTF8.self).contains("default"))

        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(.server, in: temp)
        _ = try ResourceAdder(folder: folder).add("Chore", fields: ["title:String=Home"], dryRun: false)
        let url = folder.appendingPathComponent(ProjectRecord.fileName)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(#""default" : "Home""#))
        try Data(text.replacingOccurrences(of: #""default" : "Home""#, with: #""default" : "a\"); evil(\"""#).utf8)
            .write(to: url)
        let before = TemporaryFolder.listing(of: temp.url)
        #expect {
            try ResourceAdder(folder: folder).add("Label", fields: ["name:String"], dryRun: false)
        } throws: { error in
            guard case .invalidRecord(_, let field, let reason)? = error as? BoilerError else { return false }
            return field == "resources" && reason.contains("the default of 'title'")
        }
        #expect(TemporaryFolder.listing(of: temp.url) == before)
    }
}
