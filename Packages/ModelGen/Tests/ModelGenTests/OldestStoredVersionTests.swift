import Foundation
import Testing

@testable import ModelGen

/// A design may state the oldest version whose data is still stored: no step is generated
/// before it, so its lossy early steps need no hooks, and the generated code refuses data
/// stamped older (`oldestStoredVersion`, which Serialization's `Versioned` reads).
@Suite("The oldest stored version of a design")
struct OldestStoredVersionTests {
    /// A copy of SwiftGen's two-version bundle in `folder`, with `statement` as its `.versions`
    /// file when given.
    static func swiftGen(in folder: URL, statement: String? = nil) throws -> URL {
        let copy = folder.appendingPathComponent("SwiftGenModel.xcdatamodeld")
        try FileManager.default.copyItem(
            at: Fixtures.models.appendingPathComponent("SwiftGenModel.xcdatamodeld"), to: copy)
        if let statement { try Fixtures.write(statement, to: "SwiftGenModel.versions", in: folder) }
        return copy
    }

    /// Three versions of `Note`: v1 → v2 adds a required `body` without a default (a hook),
    /// v2 → v3 adds `pinned` with one (no hook).
    static func notes(oldest: String?) -> String {
        (oldest.map { "oldestStoredVersion: \($0)\n" } ?? "")
            + """
            name: Notes
            versions:
              - name: v1
                entities:
                  - name: Note
                    attributes: [{name: title, type: string}]
              - name: v2
                entities:
                  - name: Note
                    attributes: [{name: title, type: string}, {name: body, type: string}]
              - name: v3
                entities:
                  - name: Note
                    attributes:
                      - {name: title, type: string}
                      - {name: body, type: string}
                      - {name: pinned, type: boolean, default: "NO"}
            """
    }

    @Test("SwiftGen's model needs its hooks, and none with 'oldest: Model 2' as the .versions file's first line")
    func swiftGenWithoutHooks() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let generator = ModelGenerator()
        let plain = try DesignHistory.read(from: Self.swiftGen(in: folder))
        #expect(plain.oldestStoredVersion == nil)
        #expect(try generator.plan(plain, designFile: "SwiftGenModel.xcdatamodeld").hooks.count == 6)
        Fixtures.remove(folder.appendingPathComponent("SwiftGenModel.xcdatamodeld"))

        let bundle = try Self.swiftGen(in: folder, statement: "oldest: Model 2  # data from 2019 on\n")
        let history = try DesignHistory.read(from: bundle)
        #expect(history.versions.map(\.name) == ["Model", "Model 2"])
        #expect(history.oldestStoredVersion == "Model 2")
        let plan = try generator.plan(history, designFile: "SwiftGenModel.xcdatamodeld")
        #expect(plan.hooks.isEmpty && plan.steps.isEmpty)
        #expect(plan.lines == ["versions: v1 = Model, v2 = Model 2 (current); data older than v2 is refused"])
        let files = try generator.render(history, designFile: "SwiftGenModel.xcdatamodeld")
        let machine = files.filter { $0.kind == .machine && $0.contents.contains("designMigrations") }
        #expect(!machine.isEmpty)
        for file in machine {
            #expect(!file.contents.contains("MigrationHooks"), "\(file.name)")
            #expect(file.contents.contains("static let designMigrations: [Migration] = []"), "\(file.name)")
            #expect(file.contents.contains("static let oldestStoredVersion: Int? = 2"), "\(file.name)")
        }
    }

    @Test("'oldest:' goes before a stated order too")
    func withStatedOrder() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = try Self.swiftGen(in: folder, statement: "# oldest first\noldest: Model 2\nModel\nModel 2\n")
        let history = try DesignHistory.read(from: bundle)
        #expect(history.versions.map(\.name) == ["Model", "Model 2"])
        #expect(history.oldestStoredVersion == "Model 2")
    }

    @Test("a YAML design's oldestStoredVersion keeps the steps from it on, and none before it")
    func yamlKey() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let generator = ModelGenerator()
        let all = try DesignHistory.read(from: Fixtures.write(Self.notes(oldest: nil), to: "Notes.yaml", in: folder))
        #expect(try generator.plan(all, designFile: "Notes.yaml").hooks.map(\.hook) == ["migrate_Note_body_v1_to_v2"])

        let url = try Fixtures.write(Self.notes(oldest: "v2"), to: "Notes.yaml", in: folder)
        let history = try DesignHistory.read(from: url)
        #expect(history.oldestStoredVersion == "v2")
        let plan = try generator.plan(history, designFile: "Notes.yaml")
        #expect(plan.hooks.isEmpty)
        #expect(plan.steps.map { "\($0.from)→\($0.to)" } == ["2→3"])
        let machine = try #require(
            try generator.render(history, designFile: "Notes.yaml").first { $0.name == "_Note.swift" }
        ).contents
        #expect(machine.contains("Migration(\n            from: 2, to: 3,"), "\(machine)")
        #expect(!machine.contains("from: 1"))
        #expect(machine.contains("static let oldestStoredVersion: Int? = 2"))
        #expect(!machine.contains("MigrationHooks"))
    }

    @Test("designs without the statement generate no oldestStoredVersion")
    func unstated() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let url = try Fixtures.write(Self.notes(oldest: nil), to: "Notes.yaml", in: folder)
        let files = try ModelGenerator().render(DesignHistory.read(from: url), designFile: "Notes.yaml")
        #expect(files.allSatisfy { !$0.contents.contains("oldestStoredVersion") })
    }

    @Test("an oldest version the design does not have is refused where it is named")
    func unknownVersion() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let yaml = try Fixtures.write(Self.notes(oldest: "v9"), to: "Notes.yaml", in: folder)
        let yamlError = try #require(throws: ModelGenError.self) { try DesignHistory.read(from: yaml) }
        guard case .malformedDesign(_, "oldestStoredVersion", let reason) = yamlError else {
            Issue.record("unexpected \(yamlError)")
            return
        }
        #expect(reason.contains("'v9'"))
        let bundle = try Self.swiftGen(in: folder, statement: "oldest: Model 3\n")
        let bundleError = try #require(throws: ModelGenError.self) { try DesignHistory.read(from: bundle) }
        #expect(bundleError.message.contains("line 1 names 'Model 3' as the oldest"), "\(bundleError.message)")
    }
}
