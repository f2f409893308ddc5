import Foundation
import Testing

@testable import BoilerCLI

/// `boiler update` does not trust `.boiler.json` or `.boiler/`: a hand-edited or hostile one gets
/// a typed error naming what is wrong, and nothing in the project (or outside it) changes.
@Suite("boiler update and a hostile .boiler.json or .boiler/")
struct UpdateHostileInputTests {
    /// A project one update away from current (so a passing update would write), then `tamper`.
    func refuses(
        _ label: String, expect matches: (BoilerError) -> Bool, _ tamper: (UpdateTestProject) throws -> Void
    ) throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        try project.makeOlder("Sources/Notes/main.swift") { "// older\n" + $0 }
        try tamper(project)
        let before = project.snapshot()
        for dryRun in [true, false] {
            do {
                try project.update(dryRun: dryRun)
                Issue.record("\(label): the update ran (dry run: \(dryRun))")
            } catch {
                #expect(matches(error), "\(label): \(error)")
                #expect(!error.message.isEmpty && error.message.count < 2_000, "\(label): \(error.message.prefix(300))")
            }
            #expect(project.snapshot() == before, "\(label): something changed (dry run: \(dryRun))")
        }
        #expect(
            !FileManager.default.fileExists(atPath: project.temp.url.appendingPathComponent("escaped").path),
            "\(label): a file was written outside the project")
    }

    func editRecord(_ project: UpdateTestProject, _ key: String, _ value: Any) throws {
        let url = project.folder.appendingPathComponent(ProjectRecord.fileName)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        object[key] = value
        try JSONSerialization.data(withJSONObject: object).write(to: url)
    }

    func addRecordedFile(_ project: UpdateTestProject, _ path: String) throws {
        let url = project.folder.appendingPathComponent(ProjectRecord.fileName)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var files = try #require(object["files"] as? [String: String])
        files[path] = "0000000000000000"
        object["files"] = files
        try JSONSerialization.data(withJSONObject: object).write(to: url)
    }

    static func isRecord(_ field: String) -> (BoilerError) -> Bool {
        { if case .invalidRecord(_, let named, _) = $0 { named == field } else { false } }
    }

    static func isBase(_ error: BoilerError) -> Bool {
        if case .invalidBase = error { true } else { false }
    }

    @Test("a recorded path with '..' is refused")
    func dotDot() throws {
        try refuses("..", expect: Self.isRecord("files")) { try addRecordedFile($0, "../escaped") }
    }

    @Test("an absolute recorded path is refused")
    func absolute() throws {
        try refuses("absolute", expect: Self.isRecord("files")) { try addRecordedFile($0, "/tmp/escaped") }
    }

    @Test("a recorded path with a newline is refused")
    func newline() throws {
        try refuses("newline", expect: Self.isRecord("files")) { try addRecordedFile($0, "Sources/a\nb.swift") }
    }

    @Test("a base that does not match its recorded hash is refused")
    func baseMismatch() throws {
        try refuses("base mismatch", expect: Self.isBase) {
            try $0.write(ProjectBase.path(of: "Sources/Notes/main.swift"), "print(\"crafted\")\n")
        }
    }

    @Test("a base missing for a file the user changed is refused (nothing to merge from)")
    func baseMissing() throws {
        try refuses("base missing", expect: Self.isBase) {
            try FileManager.default.removeItem(
                at: $0.folder.appendingPathComponent(ProjectBase.path(of: "Sources/Notes/main.swift")))
            try $0.write("Sources/Notes/main.swift", "// mine\n")
        }
    }

    @Test(".boiler/base as a symbolic link out of the project is refused")
    func baseFolderLinkOut() throws {
        try refuses(
            "base link",
            expect: { error in
                if case .invalidBase(_, let reason) = error { reason.contains("symbolic link") } else { false }
            }
        ) { project in
            let outside = project.temp.url.appendingPathComponent("outside-base")
            let base = project.folder.appendingPathComponent(ProjectBase.folder)
            try FileManager.default.moveItem(at: base, to: outside)
            try FileManager.default.createSymbolicLink(at: base, withDestinationURL: outside)
        }
    }

    @Test("a project file that is a symbolic link out of the project is refused")
    func projectFileLinkOut() throws {
        try refuses("file link", expect: { if case .outsideProject = $0 { true } else { false } }) { project in
            let outside = project.temp.url.appendingPathComponent("outside.swift")
            try Data("print(1)\n".utf8).write(to: outside)
            let link = project.folder.appendingPathComponent("Sources/Notes/main.swift")
            try FileManager.default.removeItem(at: link)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)
        }
    }

    @Test("a 10 MB project file is refused without being merged")
    func hugeFile() throws {
        try refuses("10 MB file", expect: { if case .unmergeable = $0 { true } else { false } }) {
            try Data(repeating: 0x61, count: 10 << 20).write(
                to: $0.folder.appendingPathComponent("Sources/NotesCore/Model/Note.swift"))
        }
    }

    @Test("a 10 MB base is refused")
    func hugeBase() throws {
        try refuses("10 MB base", expect: Self.isBase) {
            try Data(repeating: 0x61, count: 10 << 20).write(
                to: $0.folder.appendingPathComponent(ProjectBase.path(of: "README.md")))
        }
    }

    @Test("a 10 MB .boiler.json is refused without being read")
    func hugeRecord() throws {
        try refuses("10 MB record", expect: Self.isRecord("(the whole file)")) {
            var data = Data("{\"x\":\"".utf8)
            data.append(Data(repeating: 0x61, count: 10 << 20))
            data.append(Data("\"}".utf8))
            try data.write(to: $0.folder.appendingPathComponent(ProjectRecord.fileName))
        }
    }

    @Test("a file that is not UTF-8 is refused rather than rewritten")
    func notText() throws {
        try refuses("not UTF-8", expect: { if case .unmergeable = $0 { true } else { false } }) {
            try Data([0xFF, 0xFE, 0x00, 0xC3]).write(to: $0.folder.appendingPathComponent("README.md"))
        }
    }

    @Test("a template version that is not a version is refused")
    func badVersion() throws {
        try refuses("version", expect: Self.isRecord("templateVersion")) {
            try editRecord($0, "templateVersion", "1.0\n$(rm -rf /)")
        }
    }

    @Test("a file version for a file boiler did not write is refused")
    func strayFileVersion() throws {
        try refuses("fileVersions", expect: Self.isRecord("fileVersions")) {
            try editRecord($0, "fileVersions", ["../escaped": "0.1.0"])
        }
    }

    @Test("a journal with a path out of the project is refused, and nothing is moved")
    func hostileJournal() throws {
        let project = try UpdateTestProject()
        defer { project.remove() }
        try project.write(UpdateTransaction.pendingFolder + "/files/0", "escaped\n")
        try project.write(
            UpdateTransaction.pendingFolder + "/journal.json",
            #"{"writes":[{"path":"../escaped","staged":"files/0"}],"removals":["../../etc/passwd"]}"#)
        let before = project.snapshot()
        #expect(throws: BoilerError.self) { try project.update() }
        #expect(project.snapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: project.temp.url.appendingPathComponent("escaped").path))
    }

    @Test("a record made before bases were kept reads, and update asks for --adopt")
    func oldRecord() throws {
        try refuses("old record", expect: { if case .needsAdoption = $0 { true } else { false } }) { project in
            var record = try project.record
            record.templateVersion = nil
            record.fileVersions = nil
            try project.saveRecord(record)
            try FileManager.default.removeItem(at: project.folder.appendingPathComponent(".boiler"))
        }
    }
}
