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
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let record: ProjectRecord
        do {
            record = try ProjectRecord.read(in: here)
        } catch .notAProject(folder: _) {
            console.line("Not inside a boiler project (no .boiler.json here).")
            if problems > 0 { throw ExitCode(1) }
            return
        } catch {
            // A record that is there but unreadable is a problem, not "no project".
            console.error(error.message)
            throw ExitCode(1)
        }
        console.done("Project \(record.module) (\(record.template.rawValue)), made by boiler \(record.boilerVersion)")
        let missing = record.files.keys.sorted().filter {
            !FileManager.default.fileExists(atPath: here.appendingPathComponent($0).path)
        }
        if missing.isEmpty {
            console.done("All \(record.files.count) generated files are present")
        } else {
            console.error("Generated files missing: \(missing.joined(separator: ", "))")
            problems += 1
        }
        if problems > 0 { throw ExitCode(1) }
    }

    static func swiftMajorVersion(in line: String) -> Int? {
        guard let range = line.range(of: "Swift version ") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
