import Foundation
import ModelGen

/// Benchmarks of the ModelGen package: generating 1 000 entities × 20 attributes × 3
/// relationships from a YAML design. The issue names no peer (mogenerator needs macOS and Core
/// Data), so these are figures we report: parse, render, write, and a no-op rerun, which must
/// write 0 files (reported as `files_written_by_rerun`) and take under 0.3 s (issue 32: it
/// fingerprints the inputs instead of reading and rendering the design again).
enum ModelGenBenchmarks {
    static let entities = 1_000
    static let attributes = 20
    static let relationships = 3

    static func cases() async throws -> [BenchmarkCase] {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "modelgen-bench-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let designURL = root.appendingPathComponent("Synthetic.yaml")
        try Data(syntheticYAML().utf8).write(to: designURL)
        let generator = ModelGenerator()
        let design = try ModelDesign.read(from: designURL)
        let files = try generator.render(design, designFile: designURL.lastPathComponent)
        let bytes = files.reduce(0) { $0 + $1.contents.utf8.count }
        let populated = root.appendingPathComponent("Populated")
        _ = try generator.write(files, into: populated)
        // One generate first, as a project's first build does: it records the inputs, so every
        // measured rerun is a no-op rerun (the fingerprint matches and every file is as written).
        _ = try generator.generate(from: designURL, into: populated)
        let writes = Counter()
        let size: [String: Double] = [
            "entities": Double(entities), "attributes": Double(entities * attributes),
            "relationships": Double(entities * relationships), "files": Double(files.count), "bytes": Double(bytes),
        ]
        let name = "\(entities)x\(attributes)x\(relationships)"
        return [
            BenchmarkCase(
                suite: "modelgen", name: "parse-yaml-\(name)",
                ours: { _ = try ModelDesign.read(from: designURL) }, metrics: { size }),
            BenchmarkCase(
                suite: "modelgen", name: "render-\(name)",
                ours: { _ = try generator.render(design, designFile: designURL.lastPathComponent) },
                metrics: { size }),
            BenchmarkCase(
                suite: "modelgen", name: "write-\(name)",
                ours: {
                    // A fresh folder each time: every machine and human file is written.
                    writes.value += 1
                    let folder = root.appendingPathComponent("Fresh-\(writes.value)")
                    let report = try generator.write(files, into: folder)
                    guard report.changeCount == files.count else {
                        throw BenchError("write wrote \(report.changeCount)")
                    }
                },
                metrics: {
                    for index in 1...max(writes.value, 1) {
                        try? FileManager.default.removeItem(at: root.appendingPathComponent("Fresh-\(index)"))
                    }
                    return size
                }),
            BenchmarkCase(
                suite: "modelgen", name: "noop-rerun-\(name)",
                ours: {
                    let report = try generator.generate(from: designURL, into: populated)
                    guard report.changeCount == 0 else { throw BenchError("rerun changed \(report.changeCount) files") }
                },
                metrics: {
                    let report = try generator.generate(from: designURL, into: populated)
                    try? FileManager.default.removeItem(at: root)
                    return size.merging(["files_written_by_rerun": Double(report.changeCount)]) { $1 }
                }),
        ]
    }

    /// The design as YAML: entity `EntityN` has `field0…19` of mixed types and `link0…2`,
    /// to-many relationships to the next three entities.
    static func syntheticYAML() -> String {
        let types = ["String", "Integer 64", "Double", "Boolean", "Date", "UUID", "Decimal", "Binary"]
        var lines = ["entities:"]
        for index in 0..<entities {
            lines.append("  - name: Entity\(index)")
            lines.append("    attributes:")
            for attribute in 0..<attributes {
                lines.append(
                    "      - { name: field\(attribute), type: \(types[attribute % types.count]), "
                        + "optional: \(attribute % 3 == 0) }")
            }
            lines.append("    relationships:")
            for relationship in 0..<relationships {
                lines.append(
                    "      - { name: link\(relationship), destination: Entity\((index + relationship + 1) % entities), "
                        + "toMany: true }")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    final class Counter {
        var value = 0
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
