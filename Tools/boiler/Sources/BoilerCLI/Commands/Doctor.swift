import ArgumentParser
import Foundation

/// `boiler doctor`: checks the Swift toolchain and, inside a project, its record.
struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the Swift toolchain and the project in the current folder.")

    func run() async throws {
        let console = Console()
        var problems = 0
        do {
            let version = try Shell.output(["swift", "--version"], in: URL(fileURLWithPath: "."))
            let line = version.split(separator: "\n").first.map(String.init) ?? version
            if let major = Self.swiftMajorVersion(in: line), major >= 6 {
                console.done(line)
            } else {
                console.error("Swift 6 or later is needed; found: \(line)")
                problems += 1
            }
        } catch {
            console.error("No working 'swift' on PATH: \(error.userMessage)")
            problems += 1
        }
        // Not a check: which kit `boiler new` will use without --kit-path/--kit-url, so that a
        // project depending on a moved or deleted checkout is no surprise.
        console.done("New projects use \(DefaultKit.current.summary)")
        if !Self.projectIsHealthy(in: URL(fileURLWithPath: FileManager.default.currentDirectoryPath), console) {
            problems += 1
        }
        if problems > 0 { throw ExitCode(1) }
    }

    /// Checks the project in `folder`, if there is one: its record reads and its generated files
    /// are there. No project is not a problem; a record that is there but unreadable is.
    static func projectIsHealthy(in folder: URL, _ console: Console) -> Bool {
        let record: ProjectRecord
        do {
            record = try ProjectRecord.read(in: folder)
        } catch .notAProject(folder: _) {
            console.line("Not inside a boiler project (no .boiler.json here).")
            return true
        } catch {
            console.error(error.message)
            return false
        }
        console.done("Project \(record.module) (\(record.template.rawValue)), made by boiler \(record.boilerVersion)")
        let missing = record.files.keys.sorted().filter {
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
        }
        guard missing.isEmpty else {
            console.error("Generated files missing: \(missing.joined(separator: ", "))")
            return false
        }
        console.done("All \(record.files.count) generated files are present")
        let current = templatesAreCurrent(record, in: folder, console)
        return templateCopiesAreUsed(in: folder, console) && current
    }

    /// Whether every copy under `.boiler/templates/` replaces a template file: a copy that matches
    /// none (a typo in its name or folder) is never read, which its owner would not notice.
    static func templateCopiesAreUsed(in folder: URL, _ console: Console) -> Bool {
        let strays = TemplateStore.strayWarnings(in: folder)
        for warning in strays { console.error(warning) }
        return strays.isEmpty
    }

    /// Whether the project is behind this boiler's templates: what they render now, compared with
    /// what the record says boiler wrote. Being behind is reported, not a problem; a record that
    /// cannot be rendered again, or a project with no base to update from, is.
    static func templatesAreCurrent(_ record: ProjectRecord, in folder: URL, _ console: Console) -> Bool {
        let drift: (changed: [String], added: [String], removed: [String])
        do {
            try record.validate(path: folder.appendingPathComponent(ProjectRecord.fileName).path)
            drift = try UpdatePlanner(folder: folder, engine: .builtIn).drift(record)
        } catch {
            console.error(error.message)
            return false
        }
        let version = record.templateVersion ?? "from before boiler kept a base"
        let count = drift.changed.count + drift.added.count + drift.removed.count
        guard count > 0 else {
            console.done("Templates: current (\(version)); boiler update has nothing to bring")
            if record.templateVersion == nil {
                console.line("  Run 'boiler update --adopt' once, so that later updates can merge your changes.")
            }
            return true
        }
        console.line(
            "! Templates: the project is behind this boiler's (\(version) → \(ProjectBase.templateVersion)): "
                + "\(drift.changed.count) file(s) changed, \(drift.added.count) new, \(drift.removed.count) gone. "
                + (record.templateVersion == nil
                    ? "Run 'boiler update --adopt', then 'boiler update --dry-run' to see the plan."
                    : "Run 'boiler update --dry-run' to see the plan."))
        return true
    }

    static func swiftMajorVersion(in line: String) -> Int? {
        guard let range = line.range(of: "Swift version ") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
