import Foundation
import Testing

@testable import BoilerCLI

/// A file under `.boiler/templates/` that matches no template file (a typo in its name or
/// folder) is never read; boiler names it instead of ignoring it in silence: `add` and `update`
/// warn, `boiler doctor` reports it as a problem.
@Suite("Template copies that match no template file")
struct StrayTemplateCopyTests {
    func project(in temp: TemporaryFolder) throws -> URL {
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

    @Test("misspelt names and folders are listed; a copy that matches, and hidden files, are not")
    func typos() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(in: temp)
        let store = try TemplateStore()
        #expect(store.strayOverrides(in: folder).isEmpty)
        try write(
            "// ok {{part}}\n", to: ".boiler/templates/server-command/Sources/Core/Commands/Command.swift.mustache",
            in: folder)
        try write("", to: ".boiler/templates/.gitkeep", in: folder)
        try write("x", to: ".boiler/templates/server-command/Sources/Core/Commands/Comand.swift.mustache", in: folder)
        try write("x", to: ".boiler/templates/resources/Sources/Core/HTTP/ResourceRoutes.swift.mustache", in: folder)
        try write("x", to: ".boiler/templates/resource/Sources/Core/HTTP/ResourceRoutes.swift", in: folder)
        #expect(
            store.strayOverrides(in: folder) == [
                ".boiler/templates/resource/Sources/Core/HTTP/ResourceRoutes.swift",
                ".boiler/templates/resources/Sources/Core/HTTP/ResourceRoutes.swift.mustache",
                ".boiler/templates/server-command/Sources/Core/Commands/Comand.swift.mustache",
            ])
        let warnings = TemplateStore.strayWarnings(in: folder)
        #expect(warnings.count == 3)
        #expect(
            warnings.allSatisfy { $0.contains("matches no template file") && $0.contains("boiler templates --files") })
        #expect(!Doctor.templateCopiesAreUsed(in: folder, Console(quiet: true)))
    }

    @Test("a name with a line break is shown escaped, so it cannot forge a line of output")
    func lineBreak() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(in: temp)
        try write("x", to: ".boiler/templates/server/Note\nerror: forged.mustache", in: folder)
        let warnings = TemplateStore.strayWarnings(in: folder)
        #expect(warnings.count == 1)
        #expect(warnings.allSatisfy { !$0.contains("\n") && $0.contains(#"Note\nerror"#) })
    }

    @Test("a link in .boiler/templates is named, not followed")
    func linkNotFollowed() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(in: temp)
        let elsewhere = temp.url.appendingPathComponent("elsewhere")
        try write("x", to: "deep/a.mustache", in: elsewhere)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(".boiler/templates"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent(".boiler/templates/server-route"), withDestinationURL: elsewhere)
        #expect(try TemplateStore().strayOverrides(in: folder) == [".boiler/templates/server-route"])
    }

    @Test("no .boiler/templates, or one that is a file, has nothing to report")
    func nothing() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(in: temp)
        #expect(try TemplateStore().strayOverrides(in: folder).isEmpty)
        try write("x", to: ".boiler/templates", in: folder)
        #expect(try TemplateStore().strayOverrides(in: folder).isEmpty)
        #expect(Doctor.templateCopiesAreUsed(in: folder, Console(quiet: true)))
    }
}
