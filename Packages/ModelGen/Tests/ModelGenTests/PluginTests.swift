import Foundation
import Testing

/// The SwiftPM plugins, used by a real scratch package that depends on the repository's root
/// package, as an app does: the build-tool plugin generates the machine code the app compiles
/// against, and the command plugin creates the missing human file once and leaves it alone
/// afterwards.
///
/// Slow (a package build plus two plugin runs); skipped with `MODELGEN_SKIP_COMPILE=1`.
@Suite("SwiftPM plugins", .serialized)
struct PluginTests {
    static var skipped: Bool { ProcessInfo.processInfo.environment["MODELGEN_SKIP_COMPILE"] == "1" }

    @Test("the build plugin generates machine code; generate-models creates human files once", .enabled(if: !skipped))
    func plugins() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-plugin-check")
        let app = root.appendingPathComponent("Sources/App")
        Fixtures.remove(app)
        try Fixtures.write(
            """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "PluginCheck",
                platforms: [.macOS(.v14)],
                dependencies: [.package(path: "\(Fixtures.repositoryRoot.path)")],
                targets: [
                    .executableTarget(
                        name: "App", dependencies: [.product(name: "Serialization", package: "\(Fixtures.kitPackage)")],
                        exclude: ["Library.modelgen.yaml"],
                        plugins: [.plugin(name: "ModelGenPlugin", package: "\(Fixtures.kitPackage)")])
                ]
            )

            """, to: "Package.swift", in: root)
        try Fixtures.write(
            "entities:\n  - name: Book\n    attributes:\n      - { name: title, type: String }\n"
                + "      - { name: pages, type: Integer 32, default: \"0\" }\n", to: "Library.modelgen.yaml", in: app)
        try Fixtures.write(
            "import Serialization\nlet book = Book(title: \"Dune\", pages: 412)\n"
                + "print(book.title, Book.version, try Serializer(.json).string(book))\n", to: "main.swift", in: app)

        let command =
            ["swift"]
            + SharedBuildFolder.swiftArguments([
                "package", "--package-path", root.path, "--allow-writing-to-package-directory", "generate-models",
                "--human-only",
            ])
        let first = try await ChildProcess.run(command)
        #expect(first.status == 0, "generate-models failed:\n\(first.output.suffix(4000))")
        let human = app.appendingPathComponent("Models/Book.swift")
        let created = try String(contentsOf: human, encoding: .utf8)
        #expect(created.contains("extension Book: Versioned"))
        #expect(created.contains("static let version = designVersion"))
        let edited = created.replacingOccurrences(
            of: "static let version = designVersion", with: "static let version = 4")
        try Data(edited.utf8).write(to: human)
        let second = try await ChildProcess.run(command)
        #expect(second.status == 0)
        #expect(try String(contentsOf: human, encoding: .utf8) == edited)

        let build = try await ChildProcess.run(
            ["swift"] + SharedBuildFolder.swiftArguments(["build", "--package-path", root.path]))
        #expect(build.status == 0, "swift build failed:\n\(build.output.suffix(4000))")
        guard build.status == 0 else { return }
        let output = try await ChildProcess.run([
            SharedBuildFolder.products(of: root).appendingPathComponent("App").path
        ])
        #expect(output.output.contains("Dune 4"))
        #expect(output.output.contains("\"model_version\""))
    }

}
