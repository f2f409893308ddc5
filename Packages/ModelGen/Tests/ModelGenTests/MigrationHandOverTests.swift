import Foundation
import Testing

@testable import ModelGen

/// Human files from before versions were read keep building, and say how to use the generated steps.
@Suite("Handing migrations over to the generator")
struct MigrationHandOverTests {
    @Test("a kept human file declaring its own version is left alone and named in a warning")
    func oldHumanFile() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let output = folder.appendingPathComponent("Models")
        let old = """
            import Serialization

            extension Post: Versioned {
                public static let version = 1
                public static let migrations: [Migration] = []
            }

            """
        let human = try Fixtures.write(old, to: "Post.swift", in: output)
        let single = try Fixtures.write(
            "entities:\n  - name: Post\n    attributes: [{name: title, type: string}]\n", to: "One.yaml", in: folder)
        #expect(try ModelGenerator().generate(from: single, into: output).warnings.isEmpty)
        let design = try Fixtures.write(
            """
            versions:
              - name: v1
                entities: [{name: Post, attributes: [{name: title, type: string}]}]
              - name: v2
                entities: [{name: Post, attributes: [{name: title, type: string}, {name: n, type: int32, default: 0}]}]
            """, to: "Two.yaml", in: folder)
        let report = try ModelGenerator().generate(from: design, into: output)
        #expect(try String(contentsOf: human, encoding: .utf8) == old)
        #expect(report.warnings.contains { $0.hasPrefix("Post.swift declares its own version") })
        let machine = try String(contentsOf: output.appendingPathComponent("_Post.swift"), encoding: .utf8)
        #expect(machine.contains("public static let designVersion = 2"))
    }
}
