import Foundation
import Testing

@testable import BoilerCLI

/// `boiler add` does not trust `.boiler.json`: names it turns into paths or Swift source must be
/// module names, recorded paths must stay inside the project, nothing is written through a
/// symbolic link that leads out of it, and strings written into `Package.swift` are escaped.
@Suite("boiler add and an untrusted .boiler.json")
struct RecordTrustTests {
    func project(in temp: TemporaryFolder) throws -> URL {
        let options = ProjectOptions(name: try ProjectName("Notes"), template: .app, packages: nil, kit: .path("/k"))
        let folder = temp.url.appendingPathComponent("Notes")
        _ = try PlanWriter().write(try Scaffolder(options: options).plan(in: folder), force: false)
        return folder
    }

    /// Rewrites one top-level field of the project's `.boiler.json`.
    func edit(_ folder: URL, _ key: String, _ value: Any) throws {
        let url = folder.appendingPathComponent(ProjectRecord.fileName)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        object[key] = value
        try JSONSerialization.data(withJSONObject: object).write(to: url)
    }

    static let tampered: [(label: String, key: String, value: String, field: String)] = [
        ("a module that climbs out", "module", "../../Escape", "module"),
        ("a module with code in it", "module", "Notes\nimport Evil", "module"),
        ("a route with code in it", "parts", #"{"routes":["Settings) }; evil({"],"services":[]}"#, "parts.routes"),
        ("a service that is not a name", "parts", #"{"routes":[],"services":["a b"]}"#, "parts.services"),
        ("a file outside the project", "files", #"{"../outside.swift":"0"}"#, "files"),
        ("an absolute file", "files", #"{"/etc/passwd":"0"}"#, "files"),
    ]

    @Test("a tampered record is refused naming the field; nothing is written, inside or out", arguments: 0..<6)
    func tamperedRecord(index: Int) throws {
        let (label, key, value, field) = Self.tampered[index]
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(in: temp)
        let json = value.hasPrefix("{") ? try JSONSerialization.jsonObject(with: Data(value.utf8)) : value
        try edit(folder, key, json)
        let before = TemporaryFolder.listing(of: temp.url)
        #expect(throws: BoilerError.self, "\(label)") {
            try PartAdder(folder: folder).add(.route, named: "Archive", dryRun: false)
        }
        do {
            _ = try PartAdder(folder: folder).add(.route, named: "Archive", dryRun: false)
        } catch {
            guard case .invalidRecord(let path, let named, _) = error else {
                Issue.record("\(label): expected invalidRecord, got \(error)")
                return
            }
            #expect(path.hasSuffix(ProjectRecord.fileName) && named == field, "\(label)")
            #expect(error.exitCode == 65)
        }
        #expect(TemporaryFolder.listing(of: temp.url) == before, "\(label): something was written")
    }

    @Test("packages that are not kit products are refused")
    func tamperedPackages() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(in: temp)
        try edit(folder, "packages", [#"Router"), evil(""#])
        #expect(throws: BoilerError.self) {
            try PartAdder(folder: folder).add(.command, named: "Archive", dryRun: false)
        }
    }

    @Test("a symbolic link in the project that leads outside is never written through")
    func symlinkEscape() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(in: temp)
        let outside = temp.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let commands = folder.appendingPathComponent("Sources/NotesCore/Commands")
        try? FileManager.default.removeItem(at: commands)
        try FileManager.default.createSymbolicLink(at: commands, withDestinationURL: outside)
        #expect {
            try PartAdder(folder: folder).add(.command, named: "Archive", dryRun: false)
        } throws: { error in
            guard case .outsideProject(let path, let reason)? = error as? BoilerError else { return false }
            return path == "Sources/NotesCore/Commands/Archive.swift" && reason.contains("Sources/NotesCore/Commands")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("Tests/NotesCoreTests/ArchiveTests.swift").path))
    }

    @Test("a symbolic link that stays inside the project is fine")
    func symlinkInside() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(in: temp)
        let real = folder.appendingPathComponent("Sources/NotesCore/RealCommands")
        let commands = folder.appendingPathComponent("Sources/NotesCore/Commands")
        try FileManager.default.moveItem(at: commands, to: real)
        try FileManager.default.createSymbolicLink(atPath: commands.path, withDestinationPath: "RealCommands")
        _ = try PartAdder(folder: folder).add(.command, named: "Archive", dryRun: false)
        #expect(FileManager.default.fileExists(atPath: real.appendingPathComponent("Archive.swift").path))
    }

    @Test("boiler new --force never writes through a symbolic link that leads outside the folder")
    func newForceSymlink() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = temp.url.appendingPathComponent("Notes")
        let outside = temp.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("Sources"), withDestinationURL: outside)
        let options = ProjectOptions(
            name: try ProjectName("Notes"), template: .library, packages: nil, kit: .path("/k"))
        #expect(throws: BoilerError.self) {
            try PlanWriter().write(try Scaffolder(options: options).plan(in: folder), force: true)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }

    @Test("strings written into Package.swift are escaped literals")
    func packageStringsEscaped() throws {
        let url = "https://example.com/kit\")\n    evil(\"x"
        let options = ProjectOptions(
            name: try ProjectName("Notes"), template: .library, packages: nil, kit: .url(url, version: "1.0.0\" + \""))
        let plan = try Scaffolder(options: options).plan(in: URL(fileURLWithPath: "/nonexistent/Notes"))
        let manifest = try #require(plan.files.first { $0.path == "Package.swift" }).contents
        #expect(manifest.contains(#".package(url: "https://example.com/kit\")\n    evil(\"x", from: "1.0.0\" + \"")"#))
        #expect(!manifest.contains("\n    evil("))
        let path = ProjectOptions(name: try ProjectName("Notes"), template: .app, packages: nil, kit: .path("/k\"\\"))
        let appManifest = try #require(
            try Scaffolder(options: path).plan(in: URL(fileURLWithPath: "/nonexistent/Notes")).files.first {
                $0.path == "Package.swift"
            }
        ).contents
        #expect(appManifest.contains(#".package(path: "/k\"\\")"#))
    }

    @Test(
        "safe relative paths",
        arguments: [
            ("Sources/A.swift", true), ("a", true), ("", false), ("/etc", false), ("a/../b", false), ("./a", false),
            ("a//b", false), ("a\\b", false), ("a\nb", false), ("..", false),
        ])
    func safeRelative(path: String, safe: Bool) {
        #expect(ProjectPaths.isSafeRelative(path) == safe)
    }

    @Test("a record of a project named before the 64-character limit is still trusted; a 10 MB module is not")
    func longNamesFromBefore() throws {
        let temp = try TemporaryFolder()
        defer { temp.remove() }
        let folder = try project(in: temp)
        let long = "Notes" + String(repeating: "a", count: 95)
        try edit(folder, "module", long)
        let record = try ProjectRecord.read(in: folder)
        try record.validate(path: ".boiler.json")
        try edit(folder, "module", String(repeating: "A", count: 10_000_000))
        #expect {
            try ProjectRecord.read(in: folder).validate(path: ".boiler.json")
        } throws: { error in
            guard case .invalidRecord(_, let field, let reason)? = error as? BoilerError else { return false }
            // Refused by its size before it is decoded (a record over 1 MB is not boiler's).
            return field == "(the whole file)" && reason.count < 300
        }
    }
}
