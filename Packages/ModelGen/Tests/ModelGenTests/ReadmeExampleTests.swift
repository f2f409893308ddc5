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
        #expect(human.contains("    public static let version = designVersion\n"))
        #expect(machine.contains("    public static let designVersion = 1\n"))
    }

    @Test("the Models that evolve example prints its plan and generates its step")
    func evolvingExample() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let designURL = try Fixtures.write(
            """
            name: Blog
            versions:
              - name: Blog 1
                entities:
                  - name: Post
                    attributes:
                      - { name: title, type: String }
                      - { name: color, type: String, optional: true }
              - name: Blog 2
                entities:
                  - name: Post
                    attributes:
                      - { name: title, type: String }
                      - { name: hexColor, type: String, optional: true, renamedFrom: color }
                      - { name: softDeleted, type: Boolean, default: "NO" }
            """, to: "Blog.yaml", in: folder)
        let output = folder.appendingPathComponent("Sources/App/Models")
        let report = try ModelGenerator(options: GenerationOptions(isDryRun: true)).generate(
            from: designURL, into: output)
        #expect(
            report.plan == [
                "versions: v1 = Blog 1, v2 = Blog 2 (current)",
                "v1 → v2: Post.color renamed to hexColor; Post.softDeleted added (default false)",
            ])
        #expect(!FileManager.default.fileExists(atPath: output.path))
        try ModelGenerator().generate(from: designURL, into: output)
        let machine = try String(contentsOf: output.appendingPathComponent("_Post.swift"), encoding: .utf8)
        let step = """
            extension Post {
                /// The version of the design this code was generated from ('Blog 2'): stored
                /// data is stamped with it when Post.swift declares `static let version = designVersion`.
                public static let designVersion = 2

                /// The steps, generated from the design's versions, that bring data stored by an older
                /// version up to ``designVersion``, oldest first. Post.swift uses them as `migrations`.
                public static let designMigrations: [Migration] = [
                    // v1 → v2: Post.color renamed to hexColor; Post.softDeleted added (default false)
                    Migration(
                        from: 1, to: 2,
                        edits: [
                            .rename("color", to: "hexColor"),
                            .fill("softDeleted", .bool(false)),
                        ]),
                ]
            }
            """
        #expect(machine.contains(step), "\(machine)")
    }
}
