import Foundation

/// What boiler wrote, kept under `.boiler/base/` and committed with the project: the base of the
/// three-way merge `boiler update` runs when newer templates changed a file the user changed too.
///
/// Each base must hash to what `.boiler.json` records for its file; one that does not, or that
/// is not a plain file inside the project, is refused (``BoilerError/invalidBase(path:reason:)``).
/// FNV-1a tells an edited base from the one boiler wrote; it is not meant to resist a crafted one.
public enum ProjectBase {
    /// The folder the bases live in, relative to the project.
    public static let folder = ".boiler/base"

    /// The version of the templates this boiler renders: the kit's own.
    public static let templateVersion = KitVersion.current

    /// The largest file `boiler update` reads or merges: templates render files of kilobytes,
    /// and a diff of two unrelated 10 MB files would take minutes.
    public static let maximumFileSize = 2 << 20

    /// The base of `file`, relative to the project.
    public static func path(of file: String) -> String { "\(folder)/\(file)" }

    /// `plan` (from ``Scaffolder``) with the base of every file it records and a record that names
    /// the template version of each: `boiler new` writes them with the project, in one step.
    public static func adding(to plan: ScaffoldPlan) -> ScaffoldPlan {
        guard let recordFile = plan.files.first(where: { $0.path == ProjectRecord.fileName }),
            var record = try? JSONDecoder().decode(ProjectRecord.self, from: Data(recordFile.contents.utf8))
        else { return plan }
        var files = plan.files.filter { $0.path != ProjectRecord.fileName }
        let contents = Dictionary(files.map { ($0.path, $0.contents) }, uniquingKeysWith: { first, _ in first })
        var bases: [PlannedFile] = []
        for path in record.files.keys.sorted() {
            guard let text = contents[path] else { continue }
            bases.append(PlannedFile(Self.path(of: path), text))
        }
        record.templateVersion = templateVersion
        record.fileVersions = Dictionary(uniqueKeysWithValues: record.files.keys.map { ($0, templateVersion) })
        files += bases
        files.append(PlannedFile(ProjectRecord.fileName, record.json))
        return ScaffoldPlan(folder: plan.folder, files: files)
    }

    /// The base of `file`, checked against the record's `hash`; nil when there is none.
    /// - Throws: ``BoilerError/invalidBase(path:reason:)`` for a base that does not match, is too
    ///   large, is not text, or is reached through a link out of the project.
    static func read(_ file: String, in project: URL, hash: String) throws(BoilerError) -> String? {
        let path = Self.path(of: file)
        let text: String?
        do {
            text = try readText(path, in: project)
        } catch .unmergeable(_, let reason) {
            throw .invalidBase(path: path, reason: reason)
        } catch .outsideProject(_, let reason) {
            throw .invalidBase(path: path, reason: reason)
        } catch {
            throw error
        }
        guard let text else { return nil }
        guard ProjectRecord.hash(text) == hash else {
            throw .invalidBase(
                path: path,
                reason: "does not match the hash .boiler.json records for \(BoilerError.shown(file)) "
                    + "(\(ProjectRecord.hash(text)), not \(hash)): it is not what boiler wrote")
        }
        return text
    }

    /// The project file at `path` as text; nil when there is none.
    /// - Throws: ``BoilerError/outsideProject(path:reason:)`` through a link out of the project;
    ///   ``BoilerError/unmergeable(path:reason:)`` for a folder, a file over
    ///   ``maximumFileSize`` or one that is not UTF-8.
    static func readProjectFile(_ path: String, in project: URL) throws(BoilerError) -> String? {
        try readText(path, in: project)
    }

    private static func readText(_ path: String, in project: URL) throws(BoilerError) -> String? {
        try ProjectPaths.checkInside(path, root: project)
        let url = project.appendingPathComponent(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue { throw .unmergeable(path: path, reason: "it is a folder, not a file") }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int ?? 0
        if size > maximumFileSize {
            throw .unmergeable(
                path: path, reason: "it is \(size) bytes, more than the \(maximumFileSize) boiler update reads")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unmergeable(path: path, reason: error.userMessage)
        }
        // Checked again after reading: the file may have grown since its size was read.
        if data.count > maximumFileSize {
            throw .unmergeable(
                path: path, reason: "it is \(data.count) bytes, more than the \(maximumFileSize) boiler update reads")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unmergeable(path: path, reason: "it is not UTF-8 text")
        }
        return text
    }
}
