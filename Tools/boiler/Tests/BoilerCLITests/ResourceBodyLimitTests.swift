import Foundation
import Testing

@testable import BoilerCLI

/// How much of a request body a resource's `POST` and `PATCH` read: four UTF-8 bytes for each
/// character its text fields may hold, plus 4 KB, so a body over it is a 413 problem before it
/// is decoded, and a resource without text reads no more than its numbers need.
@Suite("Resource routes: the body limit")
struct ResourceBodyLimitTests {
    func routes(_ name: String, _ fields: [String]) throws -> String {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let options = ProjectOptions(name: try ProjectName("Notes"), template: .server, packages: nil, kit: .path("/k"))
        let folder = temp.url.appendingPathComponent("Notes")
        _ = try PlanWriter().write(try Scaffolder(options: options).plan(in: folder), force: false)
        if name == "Note" {
            return try String(
                contentsOf: folder.appendingPathComponent("Sources/NotesCore/HTTP/NoteRoutes.swift"), encoding: .utf8)
        }
        _ = try ResourceAdder(folder: folder).add(name, fields: fields, dryRun: false)
        return try String(
            contentsOf: folder.appendingPathComponent("Sources/NotesCore/HTTP/\(name)Routes.swift"), encoding: .utf8)
    }

    @Test("one text field, two, or none: the limit counts the text fields only")
    func limits() throws {
        #expect(try routes("Note", []).contains("collect(upTo: maximumNoteLength * 4 + 4096)"))
        #expect(
            try routes("Tag", ["name:String", "count:Int", "note:String?", "done:Bool"])
                .contains("collect(upTo: maximumTagTextLength * 4 * 2 + 4096)"))
        #expect(try routes("Reading", ["value:Double", "taken:Date"]).contains("collect(upTo: 4096)"))
    }
}
