import Foundation

/// What one design's last generation read and produced, kept in the generation manifest so that
/// a rerun with the same inputs can skip reading, resolving and rendering the design.
///
/// A rerun is skipped only when the fingerprint of every input is the same — the design's
/// bytes (every file of a bundle, and its `.versions` file), the options that shape the output,
/// every template the run would load, and the program doing the generating — and every file
/// the last run left is still there as it was: each machine file's bytes match the digest the
/// manifest records, each human file exists, and the manifest lists exactly these machine
/// files for the design. Anything else renders and writes as usual.
struct GenerationInputs: Codable, Equatable {
    /// SHA-256 (hex) of the inputs, as `inputFingerprint(design:)` computes it.
    var fingerprint: String
    /// The machine files the run produced, by name, sorted.
    var machineFiles: [String]
    /// The human files the run produced or kept, by name, sorted.
    var humanFiles: [String]
    /// The resolver's warnings, which a skipped run reports again.
    var warnings: [String]
    /// The plan's lines, which a skipped run prints again.
    var plan: [String]
    /// How many versions the design has (for the hand-over warnings).
    var versions: Int
}

extension ModelGenerator {
    /// The fingerprint of everything a generation of `design` reads, or nil when some input
    /// cannot be read (the full run then reports the error).
    ///
    /// Each part is written with its length first, so no two different sets of inputs give the
    /// same bytes to hash.
    func inputFingerprint(design: URL) -> String? {
        var buffer = Data()
        func add(_ data: Data) {
            buffer.append(contentsOf: "\(data.count):".utf8)
            buffer.append(data)
        }
        func add(_ text: String) { add(Data(text.utf8)) }
        add("ModelGen inputs 1")
        // The program: a new ModelGen (other code, other bundled templates) renders again.
        if let executable = Bundle.main.executableURL,
            let attributes = try? FileManager.default.attributesOfItem(atPath: executable.path)
        {
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            add("\(executable.path) \(size) \(modified)")
        } else {
            add("no executable")
        }
        // The design: one file, or every file of a bundle by relative path.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: design.path, isDirectory: &isDirectory) else { return nil }
        add(design.lastPathComponent)
        if isDirectory.boolValue {
            guard let files = Self.regularFiles(under: design) else { return nil }
            for (relative, url) in files {
                guard let data = try? Data(contentsOf: url) else { return nil }
                add(relative)
                add(data)
            }
        } else {
            guard let data = try? Data(contentsOf: design) else { return nil }
            add(data)
        }
        let order = VersionOrder.statementFile(of: design)
        add((try? Data(contentsOf: order)) ?? Data("no order file".utf8))
        // The templates the run would load.
        guard let bundled = TemplateSet.bundledDirectory else { return nil }
        for name in TemplateSet.bundledNames {
            guard let data = try? Data(contentsOf: bundled.appendingPathComponent("\(name).mustache")) else {
                return nil
            }
            add(name)
            add(data)
        }
        if let directory = options.templateDirectory {
            add(directory.standardizedFileURL.path)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return nil }
            for file in files.sorted() where file.hasSuffix(".mustache") {
                guard let data = try? Data(contentsOf: directory.appendingPathComponent(file)) else { return nil }
                add(file)
                add(data)
            }
        } else {
            add("no template directory")
        }
        // The options that shape what is rendered and where human files go (not dry run,
        // force or pruning: they change what is written, and a skipped run writes nothing).
        add(options.accessLevel)
        add(options.imports.joined(separator: "\n"))
        add(options.conformances.joined(separator: "\n"))
        for (key, value) in options.templateVariables.sorted(by: { $0.key < $1.key }) {
            add(key)
            add(value)
        }
        add("human files: \(options.createsHumanFiles)")
        add(options.humanDirectory?.standardizedFileURL.path ?? "beside the machine files")
        add(options.singleFileName ?? "one file per entity")
        add("queryable: \(options.queryable)")
        return SHA256Digest.hex(bytes: buffer)
    }

    /// Every regular file under `folder` (following no links), sorted by relative path; nil when
    /// the folder cannot be listed.
    private static func regularFiles(under folder: URL) -> [(String, URL)]? {
        guard let paths = FileManager.default.subpathsOfDirectory(atPathOrNil: folder.path) else { return nil }
        var files: [(String, URL)] = []
        for relative in paths.sorted() {
            let url = folder.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue { files.append((relative, url)) }
        }
        return files
    }

    /// The report of a run that would write nothing, built from what the manifest of `output`
    /// recorded for `design` — or nil when anything differs and the design must be rendered.
    func unchangedReport(design: URL, into output: URL, fingerprint: String) -> GenerationReport? {
        guard let manifest = try? GenerationManifest.load(from: output),
            let inputs = manifest.inputs?[design.lastPathComponent], inputs.fingerprint == fingerprint
        else { return nil }
        let designName = design.lastPathComponent
        let recorded = manifest.files.filter { $0.value.design == designName }
        guard Set(recorded.keys) == Set(inputs.machineFiles) else { return nil }
        var report = GenerationReport()
        for name in inputs.machineFiles {
            let url = output.appendingPathComponent(name)
            guard let entry = recorded[name], let data = try? Data(contentsOf: url),
                SHA256Digest.hex(bytes: data) == entry.sha256
            else { return nil }
            report.unchanged.append(url.path)
        }
        let humanFolder = options.humanDirectory ?? output
        for name in inputs.humanFiles {
            let url = humanFolder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) || Self.isSymbolicLink(url) else { return nil }
            report.keptHumanFiles.append(url.path)
        }
        report.warnings = inputs.warnings + Self.handOverWarnings(report.keptHumanFiles, versions: inputs.versions)
        report.plan = inputs.plan
        return report
    }
}

extension FileManager {
    /// `subpathsOfDirectory(atPath:)`, nil on failure.
    fileprivate func subpathsOfDirectory(atPathOrNil path: String) -> [String]? {
        try? subpathsOfDirectory(atPath: path)
    }
}
