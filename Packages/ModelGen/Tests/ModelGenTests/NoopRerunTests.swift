import Foundation
import Testing

@testable import ModelGen

/// A rerun whose inputs are unchanged skips reading and rendering the design (the manifest
/// records a fingerprint of them), yet anything that would make a full run write — an edited,
/// deleted or missing output, a changed design, order file, template or option — still does.
@Suite("No-op rerun")
struct NoopRerunTests {
    static let yaml = """
        versions:
          - name: V1
            entities:
              - name: Post
                attributes:
                  - { name: title, type: String }
                  - { name: color, type: String, optional: true }
          - name: V2
            entities:
              - name: Post
                attributes:
                  - { name: title, type: String }
                  - { name: hexColor, type: String, optional: true, renamedFrom: color }
              - name: Tag
                attributes:
                  - { name: label, type: String }

        """

    struct Project {
        let folder: URL
        var design: URL { folder.appendingPathComponent("M.yaml") }
        var output: URL { folder.appendingPathComponent("Models") }
        var templates: URL { folder.appendingPathComponent("Templates") }

        init() throws {
            folder = try Fixtures.temporaryFolder("modelgen-rerun")
            try Fixtures.write(NoopRerunTests.yaml, to: "M.yaml", in: folder)
        }

        func generator(_ options: GenerationOptions = GenerationOptions()) -> ModelGenerator {
            ModelGenerator(options: options)
        }

        /// Whether a rerun with `options` would skip rendering, as `generate` decides it.
        func skips(_ options: GenerationOptions = GenerationOptions()) -> Bool {
            let generator = generator(options)
            guard let fingerprint = generator.inputFingerprint(design: design) else { return false }
            return generator.unchangedReport(design: design, into: output, fingerprint: fingerprint) != nil
        }

        func url(_ name: String) -> URL { output.appendingPathComponent(name) }
    }

    @Test("a rerun with nothing changed skips rendering and reports exactly what a full run reports")
    func unchangedRerunSkips() throws {
        let project = try Project()
        defer { Fixtures.remove(project.folder) }
        let first = try project.generator().generate(from: project.design, into: project.output)
        #expect(first.written.count == 2 && first.createdHumanFiles.count == 2)
        #expect(project.skips())
        let skipped = try project.generator().generate(from: project.design, into: project.output)
        #expect(skipped.changeCount == 0 && !skipped.manifestChanged)
        #expect(skipped.plan == first.plan && !skipped.plan.isEmpty)

        // The same rerun with the record removed renders everything: its report is the same.
        var manifest = try GenerationManifest.load(from: project.output)
        manifest.inputs = nil
        try manifest.encoded().write(to: project.url(GenerationManifest.fileName))
        #expect(!project.skips())
        let full = try project.generator().generate(from: project.design, into: project.output)
        #expect(full.changeCount == 0)
        #expect(full.unchanged.sorted() == skipped.unchanged.sorted())
        #expect(full.keptHumanFiles.sorted() == skipped.keptHumanFiles.sorted())
        #expect(full.warnings == skipped.warnings && full.plan == skipped.plan)
        #expect(project.skips())
    }

    @Test("an edited machine file is rewritten, not skipped")
    func editedMachineFileRegenerates() throws {
        let project = try Project()
        defer { Fixtures.remove(project.folder) }
        try project.generator().generate(from: project.design, into: project.output)
        let original = try Data(contentsOf: project.url("_Post.swift"))
        try Data("// edited\n".utf8).write(to: project.url("_Post.swift"))
        #expect(!project.skips())
        let report = try project.generator().generate(from: project.design, into: project.output)
        #expect(report.written.map { URL(fileURLWithPath: $0).lastPathComponent } == ["_Post.swift"])
        #expect(try Data(contentsOf: project.url("_Post.swift")) == original)
    }

    @Test("a deleted machine file or human file is written again")
    func deletedFilesRegenerate() throws {
        let project = try Project()
        defer { Fixtures.remove(project.folder) }
        try project.generator().generate(from: project.design, into: project.output)
        try FileManager.default.removeItem(at: project.url("_Tag.swift"))
        #expect(!project.skips())
        let machine = try project.generator().generate(from: project.design, into: project.output)
        #expect(machine.written.map { URL(fileURLWithPath: $0).lastPathComponent } == ["_Tag.swift"])

        try FileManager.default.removeItem(at: project.url("Tag.swift"))
        #expect(!project.skips())
        let human = try project.generator().generate(from: project.design, into: project.output)
        #expect(human.createdHumanFiles.map { URL(fileURLWithPath: $0).lastPathComponent } == ["Tag.swift"])
        #expect(project.skips())
    }

    @Test("a changed design, order file, template or option renders again")
    func changedInputsRegenerate() throws {
        let project = try Project()
        defer { Fixtures.remove(project.folder) }
        try project.generator().generate(from: project.design, into: project.output)

        // The design: one more attribute.
        let edited = NoopRerunTests.yaml + "            # a comment changes the bytes, not the output\n"
        try Fixtures.write(edited, to: "M.yaml", in: project.folder)
        #expect(!project.skips())
        try project.generator().generate(from: project.design, into: project.output)
        #expect(project.skips())

        // An order file beside the design (read for bundles; any change renders again).
        try Fixtures.write("V1\nV2\n", to: "M.versions", in: project.folder)
        #expect(!project.skips())
        try project.generator().generate(from: project.design, into: project.output)
        #expect(project.skips())

        // An option that changes the output.
        let internalOptions = GenerationOptions(accessLevel: "internal")
        #expect(!project.skips(internalOptions))
        let relevelled = try project.generator(internalOptions).generate(from: project.design, into: project.output)
        #expect(relevelled.written.count == 2)
        #expect(try String(contentsOf: project.url("_Post.swift"), encoding: .utf8).contains("public struct") == false)

        // A template override, then an edit to it.
        try FileManager.default.createDirectory(at: project.templates, withIntermediateDirectories: true)
        let bundled = try #require(TemplateSet.bundledDirectory)
        var machine = try String(contentsOf: bundled.appendingPathComponent("machine.mustache"), encoding: .utf8)
        machine += "// first override\n"
        try Fixtures.write(machine, to: "machine.mustache", in: project.templates)
        let templated = GenerationOptions(templateDirectory: project.templates)
        #expect(!project.skips(templated))
        try project.generator(templated).generate(from: project.design, into: project.output)
        #expect(project.skips(templated))
        try Fixtures.write(machine + "// second override\n", to: "machine.mustache", in: project.templates)
        #expect(!project.skips(templated))
        let retemplated = try project.generator(templated).generate(from: project.design, into: project.output)
        #expect(retemplated.written.count == 2)
        #expect(try String(contentsOf: project.url("_Post.swift"), encoding: .utf8).contains("// second override"))
    }

    @Test("files written by render and write forget the record, so a later generate renders again")
    func writeForgetsRecord() throws {
        let project = try Project()
        defer { Fixtures.remove(project.folder) }
        try project.generator().generate(from: project.design, into: project.output)
        let other = project.generator(GenerationOptions(accessLevel: "internal"))
        let files = try other.render(try DesignHistory.read(from: project.design), designFile: "M.yaml")
        _ = try other.write(files, into: project.output)
        #expect(try GenerationManifest.load(from: project.output).inputs == nil)
        #expect(!project.skips())
        let report = try project.generator().generate(from: project.design, into: project.output)
        #expect(report.written.count == 2)
        #expect(try String(contentsOf: project.url("_Post.swift"), encoding: .utf8).contains("public "))
    }

    @Test("a manifest whose recorded inputs name a file outside the folder is refused")
    func hostileRecordRefused() throws {
        let project = try Project()
        defer { Fixtures.remove(project.folder) }
        try project.generator().generate(from: project.design, into: project.output)
        let url = project.url(GenerationManifest.fileName)
        let text = try String(contentsOf: url, encoding: .utf8)
        let hostile = text.replacingOccurrences(of: "\"Post.swift\"", with: "\"..\\/..\\/Post.swift\"")
        #expect(hostile != text)
        try Data(hostile.utf8).write(to: url)
        #expect(throws: ModelGenError.self) {
            try project.generator().generate(from: project.design, into: project.output)
        }
    }
}
