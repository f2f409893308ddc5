import Foundation

extension ModelGenerator {
    /// Writes rendered files: machine files when their content differs, human files only when
    /// missing; then finds (and, if asked, prunes) orphaned machine files.
    /// - Parameters:
    ///   - files: What ``render(_:designFile:)`` returned.
    ///   - output: The folder for machine files (and human files unless configured elsewhere).
    /// - Returns: What changed; in a dry run, what would change.
    public func write(_ files: [GeneratedFile], into output: URL) throws -> GenerationReport {
        var report = GenerationReport()
        let humanFolder = options.humanDirectory ?? output
        if !options.isDryRun {
            try createFolder(output)
            if files.contains(where: { $0.kind == .human }) { try createFolder(humanFolder) }
        }
        for file in files {
            switch file.kind {
            case .machine:
                let url = output.appendingPathComponent(file.name)
                let data = Data(file.contents.utf8)
                if (try? Data(contentsOf: url)) == data {
                    report.unchanged.append(url.path)
                } else {
                    if !options.isDryRun { try save(data, to: url) }
                    report.written.append(url.path)
                }
            case .human:
                let url = humanFolder.appendingPathComponent(file.name)
                if FileManager.default.fileExists(atPath: url.path) {
                    report.keptHumanFiles.append(url.path)
                } else {
                    if !options.isDryRun { try save(Data(file.contents.utf8), to: url) }
                    report.createdHumanFiles.append(url.path)
                }
            }
        }
        if options.singleFileName == nil {
            let expected = Set(files.filter { $0.kind == .machine }.map(\.name))
            report.orphans = Self.machineFiles(in: output).filter { !expected.contains($0) }.map {
                output.appendingPathComponent($0).path
            }
            if options.prunesOrphans {
                for orphan in report.orphans {
                    if !options.isDryRun {
                        do {
                            try FileManager.default.removeItem(atPath: orphan)
                        } catch {
                            throw ModelGenError.writeFailed(
                                path: orphan, reason: (error as NSError).localizedDescription)
                        }
                    }
                    report.pruned.append(orphan)
                }
            }
        }
        return report
    }

    /// Names of the machine files in `folder`: `_Name.swift` files whose first line mentions
    /// ModelGen. Anything else, human files included, is never treated as an orphan.
    static func machineFiles(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("_") && $0.hasSuffix(".swift") }.sorted().filter { name in
            guard let handle = FileHandle(forReadingAtPath: folder.appendingPathComponent(name).path) else {
                return false
            }
            defer { try? handle.close() }
            let head = handle.readData(ofLength: 512)
            let firstLine = String(decoding: head, as: UTF8.self).split(separator: "\n").first ?? ""
            return firstLine.contains("ModelGen")
        }
    }

    private func createFolder(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ModelGenError.writeFailed(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }

    private func save(_ data: Data, to url: URL) throws {
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw ModelGenError.writeFailed(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }
}
