import Foundation
import Testing

/// Which kit the built `boiler` gives a new project: this checkout, unless an option says otherwise.
@Suite("boiler knows its kit", .serialized)
struct KitChoiceTests {
    static var checkout: String { BoilerProcess.kitRoot.standardizedFileURL.path }

    static func manifest(of project: URL) throws -> String {
        try String(contentsOf: project.appendingPathComponent("Package.swift"), encoding: .utf8)
    }

    @Test("--version prints the version, then the checkout it was built from as the kit for new projects")
    func versionNamesTheKit() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let result = try await BoilerProcess.boiler(["--version"], in: scratch.url)
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "0.1.0")
        #expect(lines.count == 2)
        #expect(lines.last == "New projects use the kit at \(Self.checkout) (the checkout this boiler was built from).")
    }

    @Test("doctor says which kit a new project will use")
    func doctorNamesTheKit() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let result = try await BoilerProcess.boiler(["doctor"], in: scratch.url)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("✓ New projects use the kit at \(Self.checkout)"))
    }

    @Test("without --kit-path or --kit-url a new project depends on the checkout by path")
    func newUsesTheCheckout() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let project = scratch.url.appendingPathComponent("Demo")
        let made = try await BoilerProcess.boiler(
            ["new", "Demo", "--template", "library", "--no-git", "--no-interactive"], in: scratch.url)
        #expect(made.status == 0, "\(made.output)")
        let manifest = try Self.manifest(of: project)
        #expect(manifest.contains(".package(path: \"\(Self.checkout)\")"))
        #expect(!manifest.contains(".package(url:"))
    }

    @Test("--kit-url and --kit-version still win over the checkout; --kit-path with either is a usage error")
    func optionsWin() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let byURL = try await BoilerProcess.boiler(
            [
                "new", "ByURL", "--template", "library", "--kit-url", "https://example.com/kit.git",
                "--kit-version", "0.3.0", "--no-git", "--no-interactive",
            ], in: scratch.url)
        #expect(byURL.status == 0, "\(byURL.output)")
        #expect(
            try Self.manifest(of: scratch.url.appendingPathComponent("ByURL"))
                .contains(".package(url: \"https://example.com/kit.git\", from: \"0.3.0\")"))

        let byPath = try await BoilerProcess.boiler(
            ["new", "ByPath", "--template", "library", "--kit-path", "/elsewhere/kit", "--no-git", "--no-interactive"],
            in: scratch.url)
        #expect(byPath.status == 0, "\(byPath.output)")
        #expect(
            try Self.manifest(of: scratch.url.appendingPathComponent("ByPath"))
                .contains(".package(path: \"/elsewhere/kit\")"))

        let both = try await BoilerProcess.boiler(
            ["new", "Both", "--kit-path", "/k", "--kit-version", "0.3.0", "--no-git", "--no-interactive"],
            in: scratch.url)
        #expect(both.status == 64)
        #expect(both.output.contains("--kit-path cannot be combined"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("Both").path))
    }
}
