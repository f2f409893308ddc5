import Foundation
import Testing

@testable import BoilerCLI

/// A project's own copy of a template file under `.boiler/templates/` replaces boiler's for
/// `boiler add`; a copy that is a link leading out of the project, not a regular file, too large
/// or naming a value boiler does not give is refused, and nothing is written.
@Suite("Template overrides in .boiler/templates")
struct TemplateOverrideTests {
    static let commandTemplate = ".boiler/templates/server-command/Sources/Core/Commands/Command.swift.mustache"

    func serverProject(in temp: TemporaryFolder) throws -> URL {
        let options = ProjectOptions(name: try ProjectName("Notes"), template: .server, packages: nil, kit: .path("/k"))
        let folder = temp.url.appendingPathComponent("Notes")
        _ = try PlanWriter().write(try Scaffolder(options: options).plan(in: folder), force: false)
        return folder
    }

    func write(_ text: String, to path: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test("boiler add renders the project's copy of a template file, and boiler's for the others")
    func overrideIsUsed() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        try write("// Our house style: {{part}} in {{module}}.\n", to: Self.commandTemplate, in: folder)
        _ = try PartAdder(folder: folder).add(.command, named: "ArchiveNote", dryRun: false)
        let source = try String(
            contentsOf: folder.appendingPathComponent("Sources/NotesCore/Commands/ArchiveNote.swift"), encoding: .utf8)
        #expect(source == "// Our house style: ArchiveNote in Notes.\n")
        let test = try String(
            contentsOf: folder.appendingPathComponent("Tests/NotesCoreTests/ArchiveNoteTests.swift"), encoding: .utf8)
        #expect(test.contains("try await domain.run(ArchiveNote())"))
    }

    @Test("the new-project plan renders a project's copies when given its folder (what boiler update uses)")
    func planUsesOverrides() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        try write("# {{Name}}, our way\n", to: ".boiler/templates/shared/README.md.mustache", in: folder)
        let options = ProjectOptions(name: try ProjectName("Notes"), template: .server, packages: nil, kit: .path("/k"))
        let plan = try Scaffolder(options: options).plan(in: folder, overrides: folder)
        #expect(plan.files.first { $0.path == "README.md" }?.contents == "# Notes, our way\n")
        let plain = try Scaffolder(options: options).plan(in: folder)
        #expect(plain.files.first { $0.path == "README.md" }?.contents.hasPrefix("# Notes\n") == true)
    }

    /// Expects adding a command to fail with an error `matches` accepts, leaving the project as it was.
    func expectRefused(
        in folder: URL, sourceLocation: SourceLocation = #_sourceLocation, _ matches: (BoilerError) -> Bool
    ) {
        let before = TemporaryFolder.listing(of: folder)
        #expect(sourceLocation: sourceLocation) {
            try PartAdder(folder: folder).add(.command, named: "ArchiveNote", dryRun: false)
        } throws: { error in
            guard let error = error as? BoilerError else { return false }
            return matches(error)
        }
        #expect(TemporaryFolder.listing(of: folder) == before, sourceLocation: sourceLocation)
    }

    @Test("a copy that is a link to a file outside the project is refused")
    func linkOut() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        let secret = temp.url.appendingPathComponent("secret.txt")
        try Data("not yours".utf8).write(to: secret)
        let link = folder.appendingPathComponent(Self.commandTemplate)
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: secret)
        expectRefused(in: folder) { if case .outsideProject = $0 { true } else { false } }
    }

    @Test("a .boiler/templates folder that is a link leading out of the project is refused")
    func folderLinkOut() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        let elsewhere = temp.url.appendingPathComponent("elsewhere")
        try write(
            "// planted {{part}}\n", to: "server-command/Sources/Core/Commands/Command.swift.mustache", in: elsewhere)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(".boiler"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent(".boiler/templates"), withDestinationURL: elsewhere)
        expectRefused(in: folder) { if case .outsideProject = $0 { true } else { false } }
    }

    @Test("a copy of 10 MB is refused without being read whole")
    func tooLarge() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        try write(String(repeating: "x", count: 10_000_000), to: Self.commandTemplate, in: folder)
        expectRefused(in: folder) {
            if case .invalidTemplate(_, let reason) = $0 { reason.contains("10000000 bytes") } else { false }
        }
    }

    @Test("a folder where a copy should be, or a copy naming an unknown value, is refused")
    func notUsable() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try serverProject(in: temp)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(Self.commandTemplate), withIntermediateDirectories: true)
        expectRefused(in: folder) {
            if case .invalidTemplate(_, let reason) = $0 { reason.contains("not a regular file") } else { false }
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent(Self.commandTemplate))
        try write("struct {{partName}} {}\n", to: Self.commandTemplate, in: folder)
        expectRefused(in: folder) {
            if case .invalidTemplate(let path, let reason) = $0 {
                path == Self.commandTemplate && reason.contains(#""partName""#)
            } else {
                false
            }
        }
    }
}
