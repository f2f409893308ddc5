import Foundation
import ModelGen
import Testing

/// The README's examples, compiled and run.
@Suite("README examples")
struct ReadmeExampleTests {
    static let design = """
        entities:
          - name: Issue
            attributes:
              - { name: title, type: String }
              - { name: comment, type: String, optional: true }
              - { name: votes, type: Integer 32, default: "0" }
              - { name: default, type: Boolean, default: "NO" }      # a reserved word
            relationships:
              - { name: labels, destination: Label, toMany: true }
          - name: Label
            attributes:
              - { name: name, type: String }
        """

    @Test("the library example generates the README's before/after")
    func libraryExample() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let designURL = try Fixtures.write(Self.design, to: "Issues.yaml", in: folder)
        let output = folder.appendingPathComponent("Sources/App/Models")

        let generator = ModelGenerator(options: GenerationOptions(prunesOrphans: true))
        let report = try generator.generate(from: designURL, into: output)
        print("\(report.changeCount) files changed; orphans: \(report.orphans)")
        for warning in report.warnings { print("warning:", warning) }

        #expect(report.changeCount == 4)
        let machine = try String(contentsOf: output.appendingPathComponent("_Issue.swift"), encoding: .utf8)
        for line in [
            "public struct Issue: Codable, Sendable, Hashable {", "    public var `default`: Bool",
            "        `default`: Bool = false,", "        case `default` = \"default\"",
            "    public var labels: [Label]",
            "        votes: Int32 = 0,",
        ] {
            #expect(machine.contains(line), "missing: \(line)")
        }
        let human = try String(contentsOf: output.appendingPathComponent("Issue.swift"), encoding: .utf8)
        #expect(human.contains("extension Issue: Versioned {\n"))
        #expect(human.contains("    public static let version = 1\n"))
    }
}
