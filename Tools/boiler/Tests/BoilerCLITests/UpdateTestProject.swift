import Foundation
import Testing

@testable import BoilerCLI

/// A project made as `boiler new` makes it (with its bases), and the tools the update tests use
/// to turn it into one made by an older boiler and edited by its owner.
struct UpdateTestProject {
    let temp: TemporaryFolder
    let folder: URL

    /// A project of `template` made by today's boiler, outside any git repository.
    init(_ template: TemplateKind = .app, name: String = "Notes", database: DatabaseKind? = nil) throws {
        temp = try TemporaryFolder()
        folder = temp.url.appendingPathComponent(name)
        let options = ProjectOptions(
            name: try ProjectName(name), template: template, packages: nil, kit: .path("/kit"), database: database)
        _ = try PlanWriter().write(
            try ProjectBase.adding(to: Scaffolder(options: options).plan(in: folder)), force: false)
    }

    func remove() { temp.remove() }

    var record: ProjectRecord {
        get throws { try ProjectRecord.read(in: folder) }
    }

    func saveRecord(_ record: ProjectRecord) throws {
        try Data(record.json.utf8).write(to: folder.appendingPathComponent(ProjectRecord.fileName))
    }

    func text(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    func write(_ path: String, _ text: String) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path)
    }

    /// Makes `path` as an older template wrote it: `older` of today's text, in the file, its base
    /// and the record's hash and version, as if the project had been made by boiler 0.0.9.
    func makeOlder(_ path: String, _ older: (String) -> String) throws {
        let old = older(try text(path))
        try write(path, old)
        try write(ProjectBase.path(of: path), old)
        var record = try self.record
        record.files[path] = ProjectRecord.hash(old)
        record.fileVersions?[path] = "0.0.9"
        record.templateVersion = "0.0.9"
        try saveRecord(record)
    }

    /// A file the older template had and today's does not.
    func addOlderFile(_ path: String, _ text: String) throws {
        try write(path, text)
        try write(ProjectBase.path(of: path), text)
        var record = try self.record
        record.files[path] = ProjectRecord.hash(text)
        record.fileVersions?[path] = "0.0.9"
        try saveRecord(record)
    }

    /// A file today's template has and the older one did not: gone from the project and record.
    func removeNewerFile(_ path: String) throws {
        try FileManager.default.removeItem(at: folder.appendingPathComponent(path))
        try FileManager.default.removeItem(at: folder.appendingPathComponent(ProjectBase.path(of: path)))
        var record = try self.record
        record.files[path] = nil
        record.fileVersions?[path] = nil
        try saveRecord(record)
    }

    /// Every file below the project (hidden ones included) with its bytes.
    func snapshot() -> [String: Data] {
        var result: [String: Data] = [:]
        for path in TemporaryFolder.listing(of: temp.url) {
            result[path] = try? Data(contentsOf: temp.url.appendingPathComponent(path))
        }
        return result
    }

    /// Runs the update as `boiler update` does, quietly; returns the conflicted files.
    @discardableResult
    func update(dryRun: Bool = false, force: Bool = false, adopt: Bool = false) throws(BoilerError) -> [String] {
        try Update.update(folder, dryRun: dryRun, force: force, adopt: adopt, console: Console(quiet: true))
    }

    /// The plan `boiler update` would follow.
    func plan() throws -> UpdatePlan {
        try UpdatePlanner(folder: folder, engine: .builtIn).plan(try record)
    }
}

extension String {
    /// The text with `old` replaced by `new`, which must be there once or more.
    func replacing(_ old: String, with new: String) -> String {
        precondition(contains(old), "\(old) is not in the text")
        return replacingOccurrences(of: old, with: new)
    }
}
