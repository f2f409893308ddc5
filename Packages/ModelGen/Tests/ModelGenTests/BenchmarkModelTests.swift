import Foundation
import Testing

@testable import ModelGen

/// The model the `versioned-decode-5-steps-1k` benchmark decodes is ModelGen's output, not a
/// hand-written imitation of it: its machine files in
/// `Tools/Benchmarks/Sources/bench/Suites/EvolvedRecord` must be byte for byte what ModelGen
/// renders from ``design`` today, so a change to the generated migrations is measured.
///
/// To regenerate after an intended change:
/// `MODELGEN_UPDATE_GOLDEN=1 swift test --package-path Packages/ModelGen --filter BenchmarkModelTests`.
@Suite("Benchmark model")
struct BenchmarkModelTests {
    /// Six versions of a record: three renames, then a defaulted flag and an optional payload,
    /// then a defaulted note — five generated steps. Its lines never change.
    static let design = """
        name: EvolvedRecord
        versions:
          - name: V1
            entities:
              - name: RecordLine
                attributes:
                  - { name: sku, type: String }
                  - { name: quantity, type: Integer 64 }
              - name: EvolvedRecord
                attributes:
                  - { name: identifier, type: Integer 64 }
                  - { name: title, type: String }
                  - { name: rating, type: Double }
                  - { name: created, type: Date }
                relationships:
                  - { name: lines, destination: RecordLine, toMany: true }
          - name: V2
            entities:
              - name: RecordLine
                attributes:
                  - { name: sku, type: String }
                  - { name: quantity, type: Integer 64 }
              - name: EvolvedRecord
                attributes:
                  - { name: id, type: Integer 64, renamedFrom: identifier }
                  - { name: title, type: String }
                  - { name: rating, type: Double }
                  - { name: created, type: Date }
                relationships:
                  - { name: lines, destination: RecordLine, toMany: true }
          - name: V3
            entities:
              - name: RecordLine
                attributes:
                  - { name: sku, type: String }
                  - { name: quantity, type: Integer 64 }
              - name: EvolvedRecord
                attributes:
                  - { name: id, type: Integer 64 }
                  - { name: name, type: String, renamedFrom: title }
                  - { name: rating, type: Double }
                  - { name: created, type: Date }
                relationships:
                  - { name: lines, destination: RecordLine, toMany: true }
          - name: V4
            entities:
              - name: RecordLine
                attributes:
                  - { name: sku, type: String }
                  - { name: quantity, type: Integer 64 }
              - name: EvolvedRecord
                attributes:
                  - { name: id, type: Integer 64 }
                  - { name: name, type: String }
                  - { name: score, type: Double, renamedFrom: rating }
                  - { name: created, type: Date }
                relationships:
                  - { name: lines, destination: RecordLine, toMany: true }
          - name: V5
            entities:
              - name: RecordLine
                attributes:
                  - { name: sku, type: String }
                  - { name: quantity, type: Integer 64 }
              - name: EvolvedRecord
                attributes:
                  - { name: id, type: Integer 64 }
                  - { name: name, type: String }
                  - { name: score, type: Double }
                  - { name: created, type: Date }
                  - { name: payload, type: Binary, optional: true }
                  - { name: flagged, type: Boolean, default: false }
                relationships:
                  - { name: lines, destination: RecordLine, toMany: true }
          - name: V6
            entities:
              - name: RecordLine
                attributes:
                  - { name: sku, type: String }
                  - { name: quantity, type: Integer 64 }
              - name: EvolvedRecord
                attributes:
                  - { name: id, type: Integer 64 }
                  - { name: name, type: String }
                  - { name: score, type: Double }
                  - { name: created, type: Date }
                  - { name: payload, type: Binary, optional: true }
                  - { name: flagged, type: Boolean, default: false }
                  - { name: note, type: String, default: migrated }
                relationships:
                  - { name: lines, destination: RecordLine, toMany: true }

        """

    /// Where the benchmark keeps the generated files.
    static let folder = Fixtures.repositoryRoot.appendingPathComponent(
        "Tools/Benchmarks/Sources/bench/Suites/EvolvedRecord")

    static func rendered() throws -> [GeneratedFile] {
        let scratch = try Fixtures.temporaryFolder("modelgen-bench-model")
        defer { Fixtures.remove(scratch) }
        let url = try Fixtures.write(design, to: "EvolvedRecord.yaml", in: scratch)
        let history = try DesignHistory.read(from: url)
        return try ModelGenerator(options: GenerationOptions(accessLevel: "internal"))
            .render(history, designFile: "EvolvedRecord.yaml")
    }

    @Test("the benchmark's machine files are what ModelGen generates, and its human files use the generated steps")
    func benchmarkModelIsGenerated() throws {
        let files = try Self.rendered()
        let machine = files.filter { $0.kind == .machine }
        #expect(machine.map(\.name) == ["_EvolvedRecord.swift", "_RecordLine.swift"])
        let record = try #require(machine.first { $0.name == "_EvolvedRecord.swift" }).contents
        #expect(record.components(separatedBy: "Migration(").count - 1 == 5, "five generated steps")
        if GoldenTests.updating {
            for file in machine { try Fixtures.write(file.contents, to: file.name, in: Self.folder) }
            for file in files
            where file.kind == .human
                && !FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent(file.name).path)
            {
                try Fixtures.write(file.contents, to: file.name, in: Self.folder)
            }
        }
        for file in machine {
            let onDisk = try String(contentsOf: Self.folder.appendingPathComponent(file.name), encoding: .utf8)
            #expect(onDisk == file.contents, "\(file.name) differs from ModelGen's output: regenerate it")
        }
        for name in ["EvolvedRecord.swift", "RecordLine.swift"] {
            let human = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            #expect(human.contains("static let version = designVersion"))
            #expect(human.contains("static let migrations: [Migration] = designMigrations"))
        }
    }
}
