import Foundation
import Testing

/// `boiler` on a terminal and off one: questions and colour only on a terminal, `--quiet`.
///
/// The terminal is a pseudo-terminal from util-linux's `script`; the tests that need one are
/// skipped where `/usr/bin/script` is missing.
@Suite("boiler on and off a terminal", .serialized)
struct TerminalTests {
    /// Runs `arguments` of `boiler` on a pseudo-terminal with `input` typed in; colour allowed.
    static func onTerminal(_ arguments: [String], input: String, in folder: URL) async throws -> BoilerProcess.Result {
        let command = (["env", "-u", "NO_COLOR", BoilerProcess.boiler.path] + arguments)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ")
        return try await BoilerProcess.run(
            URL(fileURLWithPath: "/usr/bin/script"), ["-q", "-e", "-c", command, "/dev/null"], in: folder, input: input)
    }

    /// util-linux's `script` (Debian's bsdutils); macOS's takes other arguments.
    static let hasScript: Bool = {
        #if os(Linux)
            FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
        #else
            false
        #endif
    }()

    @Test("on a terminal boiler new asks for the template and paints its marks", .enabled(if: hasScript))
    func asksOnTerminal() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let result = try await Self.onTerminal(
            ["new", "Notes", "--kit-path", "/k", "--no-git"], input: "library\n", in: scratch.url)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Template (app, cli, library, server) [app]:"))
        #expect(result.output.contains("\u{1B}[32m✓\u{1B}[0m Created library project Notes"))
        let record = try String(
            contentsOf: scratch.url.appendingPathComponent("Notes/.boiler.json"), encoding: .utf8)
        #expect(record.contains(#""template" : "library""#) || record.contains(#""template":"library""#))
    }

    @Test("--no-interactive on a terminal asks nothing and takes the app template", .enabled(if: hasScript))
    func noInteractiveOnTerminal() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let result = try await Self.onTerminal(
            ["new", "Notes", "--kit-path", "/k", "--no-git", "--no-interactive"], input: "", in: scratch.url)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("Template ("))
        #expect(result.output.contains("Created app project Notes"))
    }

    @Test("off a terminal nothing is asked and nothing is painted; --quiet prints nothing but still writes")
    func offTerminal() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let plain = try await BoilerProcess.boiler(["new", "Plain", "--kit-path", "/k", "--no-git"], in: scratch.url)
        #expect(plain.status == 0, "\(plain.output)")
        #expect(!plain.output.contains("Template ("))
        #expect(!plain.output.contains("\u{1B}["))
        #expect(plain.output.contains("✓ Created app project Plain"))

        let quiet = try await BoilerProcess.boiler(
            ["new", "Quiet", "--template", "library", "--kit-path", "/k", "--no-git", "--quiet"], in: scratch.url)
        #expect(quiet.status == 0)
        #expect(quiet.output.isEmpty, "\(quiet.output)")
        #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("Quiet/Package.swift").path))
    }

    @Test("a name that is not a Swift identifier is converted, and the module name is said")
    func convertedName() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let result = try await BoilerProcess.boiler(
            ["new", "my-notes", "--template", "library", "--kit-path", "/k", "--no-git"], in: scratch.url)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Module name: MyNotes"))
        #expect(
            FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("MyNotes/Package.swift").path))
    }
}
