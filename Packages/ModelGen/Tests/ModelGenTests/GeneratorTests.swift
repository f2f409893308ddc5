import Foundation
import Testing

@testable import ModelGen

@Suite("Generating files")
struct GeneratorTests {
    let spot = Fixtures.models.appendingPathComponent("SpotTestModels.xcdatamodeld")

    @Test("each entity gets a machine file and a human file")
    func filesPerEntity() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let report = try ModelGenerator().generate(
            from: Fixtures.models.appendingPathComponent("TSBoilerplateModel.xcdatamodeld"), into: folder)
        #expect(report.written.map { URL(fileURLWithPath: $0).lastPathComponent } == ["_Book.swift"])
        #expect(report.createdHumanFiles.map { URL(fileURLWithPath: $0).lastPathComponent } == ["Book.swift"])
        let machine = try String(contentsOf: folder.appendingPathComponent("_Book.swift"), encoding: .utf8)
        #expect(machine.contains("public struct Book: Codable, Sendable, Hashable {"))
        #expect(machine.contains("static let modelVersionHash = \""))
        let human = try String(contentsOf: folder.appendingPathComponent("Book.swift"), encoding: .utf8)
        #expect(human.contains("extension Book: Versioned {"))
        #expect(human.contains("static let version = designVersion"))
        #expect(human.contains("static let migrations: [Migration] = designMigrations"))
        #expect(machine.contains("static let designVersion = 1"))
    }

    @Test("a second run writes nothing")
    func secondRunWritesNothing() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        try ModelGenerator().generate(from: spot, into: folder)
        let before = try Fixtures.snapshot(folder)
        let dates = try modificationDates(folder)
        let report = try ModelGenerator().generate(from: spot, into: folder)
        #expect(report.changeCount == 0)
        #expect(report.written.isEmpty && report.createdHumanFiles.isEmpty)
        #expect(report.unchanged.count == 29 && report.keptHumanFiles.count == 29)
        #expect(try Fixtures.snapshot(folder) == before)
        #expect(try modificationDates(folder) == dates)
    }

    @Test("human files survive regeneration byte for byte, even when the design changes")
    func humanFilesSurvive() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let design = try Fixtures.write(
            "entities:\n  - name: Note\n    attributes:\n      - { name: text, type: String }\n", to: "Notes.yaml",
            in: folder)
        let output = folder.appendingPathComponent("Models")
        try ModelGenerator().generate(from: design, into: output)
        let edited =
            "// mine\nimport Serialization\nextension Note: Versioned {\n    public static let version = 7\n}\n"
        try Fixtures.write(edited, to: "Note.swift", in: output)
        try Fixtures.write(
            "entities:\n  - name: Note\n    attributes:\n      - { name: text, type: String }\n"
                + "      - { name: pinned, type: Boolean, default: \"NO\" }\n", to: "Notes.yaml", in: folder)
        let report = try ModelGenerator(options: GenerationOptions(prunesOrphans: true)).generate(
            from: design, into: output)
        #expect(report.written.count == 1)
        #expect(report.keptHumanFiles.count == 1)
        #expect(try String(contentsOf: output.appendingPathComponent("Note.swift"), encoding: .utf8) == edited)
        let machine = try String(contentsOf: output.appendingPathComponent("_Note.swift"), encoding: .utf8)
        #expect(machine.contains("pinned: Bool = false"))
    }

    @Test("machine files of removed entities are listed as orphans and pruned only on request; human files stay")
    func orphansAndPrune() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let output = folder.appendingPathComponent("Models")
        let twoEntities = "entities:\n  - name: Keep\n  - name: Gone\n"
        let design = try Fixtures.write(twoEntities, to: "M.yaml", in: folder)
        try ModelGenerator().generate(from: design, into: output)
        try Fixtures.write("// not ours\n", to: "_Unrelated.swift", in: output)
        try Fixtures.write("entities:\n  - name: Keep\n", to: "M.yaml", in: folder)

        let listed = try ModelGenerator().generate(from: design, into: output)
        #expect(listed.orphans.map { URL(fileURLWithPath: $0).lastPathComponent } == ["_Gone.swift"])
        #expect(listed.pruned.isEmpty)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("_Gone.swift").path))

        let dry = try ModelGenerator(options: GenerationOptions(prunesOrphans: true, isDryRun: true)).generate(
            from: design, into: output)
        #expect(dry.pruned.count == 1)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("_Gone.swift").path))

        let pruned = try ModelGenerator(options: GenerationOptions(prunesOrphans: true)).generate(
            from: design, into: output)
        #expect(pruned.pruned.map { URL(fileURLWithPath: $0).lastPathComponent } == ["_Gone.swift"])
        let remaining = try Set(FileManager.default.contentsOfDirectory(atPath: output.path))
        #expect(
            remaining == ["_Keep.swift", "Keep.swift", "Gone.swift", "_Unrelated.swift", GenerationManifest.fileName])
    }

    @Test("a dry run reports changes and writes nothing")
    func dryRun() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let output = folder.appendingPathComponent("out")
        let report = try ModelGenerator(options: GenerationOptions(isDryRun: true)).generate(from: spot, into: output)
        #expect(report.written.count == 29 && report.createdHumanFiles.count == 29)
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("a template in the template path replaces the bundled one and reads template variables")
    func templateOverride() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        try Fixtures.write(
            "{{% CONTENT_TYPE: TEXT}}\n// ModelGen custom: {{entity.typeName}} by {{vars.author}}\n"
                + "{{#entity.properties}}\n// {{swiftName}}: {{type}} <{{key}}>\n{{/entity.properties}}\n",
            to: "machine.mustache", in: folder)
        let options = GenerationOptions(templateDirectory: folder, templateVariables: ["author": "Ann & Bo"])
        let design = ModelDesign(
            name: "M",
            entities: [
                EntityDesign(
                    name: "Pair", attributes: [AttributeDesign(name: "default", type: .string, isOptional: true)])
            ])
        let files = try ModelGenerator(options: options).render(design, designFile: "M.yaml")
        let machine = try #require(files.first { $0.kind == .machine })
        #expect(machine.contents == "// ModelGen custom: Pair by Ann & Bo\n// `default`: String? <default>\n")
        let human = try #require(files.first { $0.kind == .human })
        #expect(human.contents.contains("extension Pair: Versioned"))
    }

    @Test("access level, imports and conformances are options")
    func options() throws {
        let options = GenerationOptions(accessLevel: "package", imports: ["Combine"], conformances: ["Identifiable"])
        let design = ModelDesign(
            name: "M", entities: [EntityDesign(name: "Item", attributes: [AttributeDesign(name: "id", type: .uuid)])])
        let files = try ModelGenerator(options: options).render(design, designFile: "M.yaml")
        let machine = try #require(files.first).contents
        #expect(machine.contains("import Combine\nimport Foundation\n"))
        #expect(machine.contains("package struct Item: Codable, Sendable, Hashable, Identifiable {"))
        #expect(machine.contains("    package var id: UUID\n"))
        #expect(throws: ModelGenError.self) {
            try ModelGenerator(options: GenerationOptions(accessLevel: "open sesame")).render(design, designFile: "M")
        }
    }

    @Test("single-file mode puts all machine code in one named file")
    func singleFile() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let options = GenerationOptions(createsHumanFiles: false, singleFileName: "Models.swift")
        let report = try ModelGenerator(options: options).generate(from: spot, into: folder)
        #expect(report.written.map { URL(fileURLWithPath: $0).lastPathComponent } == ["Models.swift"])
        let text = try String(contentsOf: folder.appendingPathComponent("Models.swift"), encoding: .utf8)
        #expect(text.contains("public struct Company:") && text.contains("public enum Gender: String"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                == [GenerationManifest.fileName, "Models.swift"])
    }

    @Test("1 000 entities × 20 attributes × 3 relationships: a rerun writes 0 files")
    func largeNoOpRerun() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let generator = ModelGenerator()
        let design = Fixtures.synthetic(entities: 1_000, attributes: 20, relationships: 3)
        let files = try generator.render(design, designFile: "Synthetic.yaml")
        let first = try generator.write(files, into: folder)
        #expect(first.written.count == 1_000 && first.createdHumanFiles.count == 1_000)
        let again = try generator.write(try generator.render(design, designFile: "Synthetic.yaml"), into: folder)
        #expect(again.changeCount == 0)
        #expect(again.unchanged.count == 1_000)
    }

    private func modificationDates(_ folder: URL) throws -> [String: Date] {
        var result: [String: Date] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            result[name] = attributes[.modificationDate] as? Date
        }
        return result
    }
}
