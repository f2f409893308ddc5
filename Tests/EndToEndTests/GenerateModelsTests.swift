import Foundation
import Testing

@Suite("boiler generate models, end to end")
struct GenerateModelsTests {
    static let designs = [
        "mogenerator-test.xcdatamodel", "MogenSwiftTest.xcdatamodeld", "SwiftGenModel.xcdatamodeld",
        "SpotTestModels.xcdatamodeld", "TSBoilerplateModel.xcdatamodeld",
    ]

    static var models: URL {
        BoilerProcess.kitRoot.appendingPathComponent("Tests/Fixtures/models")
    }

    @Test("every fixture model design generates; a second run changes nothing; human files survive", arguments: designs)
    func generate(design: String) async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let output = scratch.url.appendingPathComponent("Models")
        let path = Self.models.appendingPathComponent(design).path
        let first = try await BoilerProcess.boiler(
            ["generate", "models", path, "--output", output.path], in: scratch.url)
        #expect(first.status == 0, "\(first.output)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path)
        let machine = files.filter { $0.hasPrefix("_") && $0.hasSuffix(".swift") }
        #expect(!machine.isEmpty)
        #expect(machine.count == files.filter { !$0.hasPrefix("_") && !$0.hasPrefix(".") }.count)
        #expect(files.contains(".modelgen-manifest.json"))

        let human = output.appendingPathComponent(String(try #require(machine.first).dropFirst()))
        try Data("// mine\n".utf8).write(to: human)
        let second = try await BoilerProcess.boiler(
            ["generate", "models", path, "--output", output.path], in: scratch.url)
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("0 file(s) changed"))
        #expect(try String(contentsOf: human, encoding: .utf8) == "// mine\n")
    }

    @Test("--dry-run, --prune, --no-human, --template-path with --template-var and --access work from the CLI")
    func flags() async throws {
        let run = try DesignRun()
        defer { run.scratch.remove() }
        let (design, output, generate) = (run.design, run.output, run.generate)
        func files() -> Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []) }
        try Data("entities:\n  - name: Keep\n  - name: Gone\n".utf8).write(to: design)

        let dry = try await generate(["--dry-run"])
        #expect(dry.status == 0, "\(dry.output)")
        #expect(dry.output.contains("Would write") && dry.output.contains("_Keep.swift"))
        #expect(!FileManager.default.fileExists(atPath: output.path))

        let machineOnly = try await generate(["--no-human", "--access", "internal"])
        #expect(machineOnly.status == 0, "\(machineOnly.output)")
        #expect(files() == ["_Keep.swift", "_Gone.swift", ".modelgen-manifest.json"])
        let keep = try String(contentsOf: output.appendingPathComponent("_Keep.swift"), encoding: .utf8)
        #expect(keep.contains("struct Keep") && !keep.contains("public struct"))

        try Data("entities:\n  - name: Keep\n".utf8).write(to: design)
        let listed = try await generate([])
        #expect(listed.output.contains("orphan") && listed.output.contains("_Gone.swift"))
        #expect(files().contains("_Gone.swift"))
        let pruned = try await generate(["--prune"])
        #expect(pruned.status == 0, "\(pruned.output)")
        #expect(pruned.output.contains("Removed") && pruned.output.contains("_Gone.swift"))
        #expect(files() == ["_Keep.swift", "Keep.swift", ".modelgen-manifest.json"])

        let templates = run.scratch.url.appendingPathComponent("Templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try Data("{{% CONTENT_TYPE: TEXT}}\n// {{entity.typeName}} for {{vars.team}}\n".utf8)
            .write(to: templates.appendingPathComponent("machine.mustache"))
        let custom = try await generate(["--template-path", templates.path, "--template-var", "team=Platform"])
        #expect(custom.status == 0, "\(custom.output)")
        let rendered = try String(contentsOf: output.appendingPathComponent("_Keep.swift"), encoding: .utf8)
        #expect(rendered.contains("// Keep for Platform"))

        let badVariable = try await generate(["--template-var", "novalue"])
        #expect(badVariable.status == 64, "\(badVariable.output)")
    }

    @Test("--queryable makes entities with an id QueryableRecords; one without is left out with a warning")
    func queryable() async throws {
        let run = try DesignRun()
        defer { run.scratch.remove() }
        let (design, output, generate) = (run.design, run.output, run.generate)
        func machineFile(_ name: String) throws -> String {
            try String(contentsOf: output.appendingPathComponent("_\(name).swift"), encoding: .utf8)
        }
        try Data(
            """
            entities:
              - name: Note
                attributes:
                  - { name: id, type: Integer 64 }
                  - { name: text, type: String }
                  - { name: stars, type: Integer 16 }
              - name: Address
                attributes:
                  - { name: street, type: String }
            """.utf8
        ).write(to: design)

        let plain = try await generate([])
        #expect(plain.status == 0, "\(plain.output)")
        #expect(try !machineFile("Note").contains("QueryableRecord"))

        let queryable = try await generate(["--queryable"])
        #expect(queryable.status == 0, "\(queryable.output)")
        let note = try machineFile("Note")
        #expect(note.contains("import Storage") && note.contains("QueryableRecord"))
        #expect(note.contains(#"QueryField(\.text, "text")"#) && note.contains(#"QueryField(\.stars, "stars")"#))
        #expect(try !machineFile("Address").contains("QueryableRecord"))
        #expect(queryable.output.contains("warning: Entity 'Address' is not made queryable"), "\(queryable.output)")

        // Asked for by the entity itself, an impossible conformance is an error naming it, and
        // nothing is rewritten.
        let before = try machineFile("Address")
        try Data(
            """
            entities:
              - name: Address
                queryable: true
                attributes:
                  - { name: street, type: String }
            """.utf8
        ).write(to: design)
        let refused = try await generate([])
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output.contains("Address") && refused.output.contains("boiler.queryable"), "\(refused.output)")
        #expect(try machineFile("Address") == before)
    }

    @Test("an edited orphan or a file ModelGen did not write exits 73 and is kept; --force goes ahead")
    func ownership() async throws {
        let run = try DesignRun()
        defer { run.scratch.remove() }
        let (design, output, generate) = (run.design, run.output, run.generate)
        try Data("entities:\n  - name: _Draft\n  - name: Gone\n".utf8).write(to: design)
        #expect(try await generate(["--prune"]).status == 0)
        let human = output.appendingPathComponent("_Draft.swift")
        #expect(FileManager.default.fileExists(atPath: human.path))

        let gone = output.appendingPathComponent("_Gone.swift")
        try Data((try String(contentsOf: gone, encoding: .utf8) + "// edited\n").utf8).write(to: gone)
        try Data("entities:\n  - name: _Draft\n".utf8).write(to: design)
        let refused = try await generate(["--prune"])
        #expect(refused.status == 73, "\(refused.output)")
        #expect(refused.output.contains("_Gone.swift") && refused.output.contains("--force"))
        #expect(FileManager.default.fileExists(atPath: gone.path))
        let forced = try await generate(["--prune", "--force"])
        #expect(forced.status == 0, "\(forced.output)")
        #expect(
            !FileManager.default.fileExists(atPath: gone.path) && FileManager.default.fileExists(atPath: human.path))

        try Data("// mine\n".utf8).write(to: output.appendingPathComponent("_New.swift"))
        try Data("entities:\n  - name: _Draft\n  - name: New\n".utf8).write(to: design)
        let unowned = try await generate([])
        #expect(unowned.status == 73, "\(unowned.output)")
        #expect(try String(contentsOf: output.appendingPathComponent("_New.swift"), encoding: .utf8) == "// mine\n")
    }

    @Test("a design that is not a model is an error that names the file, and nothing is written")
    func badDesign() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let design = scratch.url.appendingPathComponent("broken.yaml")
        try Data("entities: [ {name: 1".utf8).write(to: design)
        let output = scratch.url.appendingPathComponent("Models")
        let result = try await BoilerProcess.boiler(
            ["generate", "models", design.path, "--output", output.path], in: scratch.url)
        #expect(result.status == 1)
        #expect(result.output.contains("broken.yaml"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}

/// A scratch folder with a design `M.yaml` and an output folder `Models`, and `boiler generate
/// models` between them with extra flags.
private struct DesignRun {
    let scratch: ScratchFolder
    var design: URL { scratch.url.appendingPathComponent("M.yaml") }
    var output: URL { scratch.url.appendingPathComponent("Models") }

    init() throws { scratch = try ScratchFolder() }

    func generate(_ flags: [String]) async throws -> BoilerProcess.Result {
        try await BoilerProcess.boiler(
            ["generate", "models", design.path, "--output", output.path] + flags, in: scratch.url)
    }
}
