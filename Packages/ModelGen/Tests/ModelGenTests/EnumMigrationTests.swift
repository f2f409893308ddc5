import Foundation
import Testing

@testable import ModelGen

/// Enum entities across versions: case changes are in the plan; a rename that changes a stored
/// raw value is rewritten by the generated step; a change stored values cannot survive (a
/// removed case, another raw type, a renamed associated-value case) is a hook on each property
/// holding the enum, so the build fails until the human file says what to do.
@Suite("Enum entities across versions")
struct EnumMigrationTests {
    /// A design whose `Mood` enum has `v1` cases in version 1 and `v2` cases in version 2,
    /// held by `Post.mood` (to-one) and `Post.moods` (to-many).
    static func design(v1: String, v2: String, rawType: String = "String", rawType2: String? = nil) -> String {
        func version(_ name: String, _ cases: String, _ rawType: String) -> String {
            """
              - name: \(name)
                entities:
                  - name: Mood
                    enum: true
                    rawType: \(rawType)
                    attributes:
            \(cases)
                  - name: Post
                    attributes:
                      - { name: title, type: String }
                    relationships:
                      - { name: mood, destination: Mood }
                      - { name: moods, destination: Mood, toMany: true }

            """
        }
        return "name: Blog\nversions:\n" + version("V1", v1, rawType) + version("V2", v2, rawType2 ?? rawType)
    }

    static func render(_ yaml: String) throws -> (plan: [String], machine: String) {
        let folder = try Fixtures.temporaryFolder("modelgen-enums")
        defer { Fixtures.remove(folder) }
        let url = try Fixtures.write(yaml, to: "Blog.yaml", in: folder)
        let history = try DesignHistory.read(from: url)
        let rendered = try ModelGenerator().renderFiles(history, designFile: "Blog.yaml")
        let machine = try #require(rendered.files.first { $0.name == "_Post.swift" }).contents
        return (rendered.plan, machine)
    }

    @Test("a renamed String case is in the plan, and the step rewrites its stored raw value with no hook")
    func renamedCaseRewritten() throws {
        let (plan, machine) = try Self.render(
            Self.design(
                v1: "          - { name: happy, type: String }\n          - { name: sad, type: String }",
                v2:
                    "          - { name: joyful, type: String, renamedFrom: happy }\n          - { name: sad, type: String }\n          - { name: calm, type: String }"
            ))
        let line = try #require(plan.first { $0.hasPrefix("v1 → v2") })
        #expect(line.contains("Mood.happy renamed to joyful"))
        #expect(line.contains("Mood.calm added"))
        #expect(line.contains(#"Mood.joyful stored as "joyful" instead of "happy""#))
        #expect(machine.contains(#".replaceValues("mood", [.string("happy"): .string("joyful")]),"#))
        #expect(machine.contains(#".replaceValues("moods", [.string("happy"): .string("joyful")]),"#))
        #expect(!machine.contains("MigrationHooks"))
    }

    @Test("a renamed case that keeps its raw value changes nothing stored")
    func renameKeepingRawValue() throws {
        let (plan, machine) = try Self.render(
            Self.design(
                v1: "          - { name: happy, type: String }",
                v2:
                    "          - { name: joyful, type: String, renamedFrom: happy, userInfo: { boiler.rawValue: happy } }"
            ))
        #expect(plan.contains { $0.contains("Mood.happy renamed to joyful") })
        #expect(!machine.contains("replaceValues") && !machine.contains("MigrationHooks"))
    }

    @Test("a removed case is a hook on every property holding the enum")
    func removedCaseNeedsHook() throws {
        let (plan, machine) = try Self.render(
            Self.design(
                v1: "          - { name: happy, type: String }\n          - { name: sad, type: String }",
                v2: "          - { name: happy, type: String }"))
        #expect(plan.contains { $0.contains("Mood.sad removed") })
        #expect(machine.contains("static func migrate_Post_mood_v1_to_v2(_ tree: inout KeyValue) throws"))
        #expect(machine.contains("static func migrate_Post_moods_v1_to_v2(_ tree: inout KeyValue) throws"))
        #expect(machine.contains("whose case sad was removed"))
    }

    @Test("a changed raw type is a hook; an Int case whose number changes is rewritten")
    func rawTypeAndNumbers() throws {
        let changedType = try Self.render(
            Self.design(
                v1: "          - { name: low, type: String }",
                v2: "          - { name: low, type: String, userInfo: { boiler.rawValue: \"1\" } }",
                rawType2: "Int"))
        #expect(
            changedType.plan.contains {
                $0.contains("Mood changed from an enum of String raw values to an enum of Int raw values")
            })
        #expect(changedType.machine.contains("static func migrate_Post_mood_v1_to_v2(_ tree: inout KeyValue) throws"))
        let renumbered = try Self.render(
            Self.design(
                v1: "          - { name: low, type: String, userInfo: { boiler.rawValue: \"1\" } }",
                v2: "          - { name: low, type: String, userInfo: { boiler.rawValue: \"10\" } }", rawType: "Int"))
        #expect(renumbered.machine.contains(#".replaceValues("mood", [.int(1): .int(10)]),"#))
    }
}
