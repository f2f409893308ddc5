import Foundation
import Testing

@testable import BoilerCLI

/// `boiler templates --eject NAME`: copies a template's or part's files into the project's
/// `.boiler/templates/`, byte for byte; never overwrites a copy, never writes outside the
/// project, and refuses a name that is not a template or part.
@Suite("boiler templates --eject")
struct TemplateEjectTests {
    func project(in temp: TemporaryFolder) throws -> URL {
        let options = ProjectOptions(name: try ProjectName("Notes"), template: .server, packages: nil, kit: .path("/k"))
        let folder = temp.url.appendingPathComponent("Notes")
        _ = try PlanWriter().write(try Scaffolder(options: options).plan(in: folder), force: false)
        return folder
    }

    @Test("the files of a part are copied as they are in boiler's bundle, and add then renders them")
    func ejectCopies() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(in: temp)
        let store = try TemplateStore()
        let written = try TemplateEjector(folder: folder).eject("server-route", dryRun: false)
        #expect(written == store.files(of: "server-route").map { ".boiler/templates/\($0)" })
        #expect(written.count == 2)
        for (path, file) in zip(written, store.files(of: "server-route")) {
            let copy = try Data(contentsOf: folder.appendingPathComponent(path))
            #expect(copy == (try Data(contentsOf: store.bundled.appendingPathComponent(file))))
        }
        let outcome = try PartAdder(folder: folder).add(.route, named: "UserStats", dryRun: false)
        #expect(outcome.written.contains("Sources/NotesCore/HTTP/UserStatsRoutes.swift"))
    }

    @Test("a dry run lists the copies and writes nothing")
    func dryRun() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(in: temp)
        let before = TemporaryFolder.listing(of: folder)
        let planned = try TemplateEjector(folder: folder).eject("server", dryRun: true)
        #expect(planned.contains(".boiler/templates/server/Sources/Core/HTTP/ProblemDetails.swift.mustache"))
        #expect(TemporaryFolder.listing(of: folder) == before)
    }

    @Test("copies already there are not overwritten: the eject is refused whole, naming them and the way on")
    func noOverwrite() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(in: temp)
        let mine = folder.appendingPathComponent(
            ".boiler/templates/server-route/Sources/Core/HTTP/Routes.swift.mustache")
        try FileManager.default.createDirectory(at: mine.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("// mine\n".utf8).write(to: mine)
        let before = TemporaryFolder.listing(of: folder)
        #expect {
            try TemplateEjector(folder: folder).eject("server-route", dryRun: false)
        } throws: { error in
            guard let error = error as? BoilerError,
                case .templateCopiesExist(_, let template, let paths) = error
            else { return false }
            // Its own message: which copies are there and what to do, not `new`'s --force.
            return template == "server-route"
                && paths == [".boiler/templates/server-route/Sources/Core/HTTP/Routes.swift.mustache"]
                && error.message.contains("server-route/Sources/Core/HTTP/Routes.swift.mustache")
                && error.message.contains("move them aside and eject again")
                && !error.message.contains("--force") && !error.message.contains("new project")
                && error.exitCode == 73
        }
        #expect(TemporaryFolder.listing(of: folder) == before)
        #expect(try String(contentsOf: mine, encoding: .utf8) == "// mine\n")
    }

    @Test("a name that is no template or part is refused: '..', a path, a newline, 10 MB")
    func badNames() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(in: temp)
        let before = TemporaryFolder.listing(of: folder)
        for name in ["..", "../server", "server/../..", "serv\ner", "", String(repeating: "a", count: 10_000_000)] {
            #expect {
                try TemplateEjector(folder: folder).eject(name, dryRun: false)
            } throws: { error in
                guard case .invalidOption(let option, let value, _)? = error as? BoilerError else { return false }
                return option == "eject" && value.utf8.count < 200
            }
        }
        #expect(TemporaryFolder.listing(of: folder) == before)
    }

    @Test("outside a project, or through a .boiler link leading out, nothing is written")
    func outside() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let plain = temp.url.appendingPathComponent("plain")
        try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
        #expect(throws: BoilerError.notAProject(folder: plain.path)) {
            try TemplateEjector(folder: plain).eject("server", dryRun: false)
        }
        let folder = try project(in: temp)
        let elsewhere = temp.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent(".boiler"), withDestinationURL: elsewhere)
        #expect {
            try TemplateEjector(folder: folder).eject("server-route", dryRun: false)
        } throws: { error in
            if case .outsideProject? = error as? BoilerError { true } else { false }
        }
        #expect(TemporaryFolder.listing(of: elsewhere).isEmpty)
    }
}
