import Foundation
import Testing

@testable import ModelGen

/// Int-backed enums store numbers, so each case's number must be written in the design:
/// numbering by position would remap stored values when a case is inserted.
@Suite("Int enum raw values")
struct IntEnumRawValueTests {
    func level(_ cases: [(String, String?)], rawType: String = "Int") -> ModelDesign {
        ModelDesign(
            name: "M",
            entities: [
                EntityDesign(
                    name: "Level",
                    attributes: cases.map { name, raw in
                        AttributeDesign(name: name, type: .string, userInfo: raw.map { ["boiler.rawValue": $0] } ?? [:])
                    },
                    userInfo: ["boiler.enum": "YES", "boiler.rawType": rawType])
            ])
    }

    @Test("an Int enum case without a raw value is an error naming the enum and the case; nothing is written")
    func missingRawValue() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let design = try Fixtures.write(
            "entities:\n  - name: Level\n    enum: true\n    rawType: Int\n    attributes:\n"
                + "      - { name: low, type: String, rawValue: \"1\" }\n      - { name: high, type: String }\n",
            to: "Levels.yaml", in: folder)
        let output = folder.appendingPathComponent("out")
        #expect {
            try ModelGenerator().generate(from: design, into: output)
        } throws: { error in
            guard case .invalidEnum(let file, let entity, let reason) = error as? ModelGenError else { return false }
            return file == "Levels.yaml" && entity == "Level" && reason.contains("'high'")
                && reason.contains("no raw value") && (error as? ModelGenError)?.message.contains("Level") == true
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("inserting a case keeps every stored number: raw values come from the design, not positions")
    func insertingKeepsNumbers() throws {
        let before = try ModelResolver.resolve(level([("low", "1"), ("high", "3")]), file: "M.yaml")
        let after = try ModelResolver.resolve(level([("low", "1"), ("medium", "2"), ("high", "3")]), file: "M.yaml")
        #expect(before.entities[0].cases.map(\.rawValue) == ["1", "3"])
        #expect(after.entities[0].cases.map(\.rawValue) == ["1", "2", "3"])
    }

    @Test("String enums keep their case names as raw values without being told")
    func stringEnumsKeepNames() throws {
        let model = try ModelResolver.resolve(level([("low", nil), ("high", "HIGH")], rawType: "String"), file: "M")
        #expect(model.entities[0].cases.map(\.rawValue) == [#""low""#, #""HIGH""#])
    }
}
