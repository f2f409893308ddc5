import Foundation
import Testing

@testable import ModelGen

/// Random names — Unicode letters, marks, digits, symbols, emoji, keywords, line breaks, bidi
/// and zero-width characters, comment delimiters — as entity, attribute, relationship and enum
/// case names: each is either refused with a typed error or generates code that compiles.
///
/// Deterministic: the seed is fixed (`MODELGEN_FUZZ_SEED` overrides it, to explore). The compile
/// check type-checks the machine files with `swiftc -warnings-as-errors` and is skipped with
/// `MODELGEN_SKIP_COMPILE=1`; the rest always runs.
@Suite("Name mapping fuzz", .serialized)
struct NameMappingFuzzTests {
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["MODELGEN_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2026
    }

    static let nameCount = 600

    /// SplitMix64: small, fast and the same everywhere, so a failing seed reproduces.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces: [String] = [
        // Plain words, keywords and names the generated code uses.
        "name", "first", "Value", "id", "x", "default", "class", "init", "self", "Self", "Type", "Any", "_", "case",
        "String", "CodingKeys", "hashValue", "modelVersionHash", "actor", "some", "rawValue", "allCases", "hasher",
        "container", "decoder", "lhs", "rhs", "from", "version", "migrations", "true", "nil", "await", "package",
        // Separators, punctuation, comment delimiters, escapes.
        "-", " ", ".", "_", "$", "`", "*/", "/*", "//", "\"", "\\", "#", "@", "(", ")", "{", "}", ";", ",", "'",
        // Line breaks, controls, bidi and zero-width characters.
        "\n", "\r", "\t", "\u{0}", "\u{7F}", "\u{85}", "\u{2028}", "\u{2029}", "\u{202E}", "\u{2066}", "\u{200B}",
        "\u{200D}", "\u{FEFF}", "\u{AD}", "\u{180E}",
        // Letters and marks from many scripts, composed and decomposed.
        "é", "e\u{301}", "\u{301}", "ß", "ŉ", "ΐ", "Δ", "я", "中文", "日本", "한", "ع", "א", "ᚠ", "𝒳", "𐐀", "ǅ", "ǆ",
        "ᵃ", "ﬁ", "Ａ", "ｚ", "ℌ", "ⓐ", "\u{20DD}", "\u{1DC0}", "\u{0903}",
        // Numbers of every kind.
        "0", "3", "42", "Ⅻ", "²", "½", "٣", "１", "𝟘",
        // Symbols, emoji, private use, noncharacters and unassigned code points.
        "🙂", "👩\u{200D}💻", "⌘", "©", "∑", "→", "\u{E000}", "\u{10FFFD}", "\u{0378}",
        // Noncharacters, which a literal may not spell.
        String(Character(Unicode.Scalar(0xFDD0)!)), String(Character(Unicode.Scalar(0xFFFE)!)),
    ]

    static func randomName(_ rng: inout Generator) -> String {
        var name = ""
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            if Int.random(in: 0..<6, using: &rng) == 0 {
                // Any scalar at all, surrogates excepted.
                let value = UInt32.random(in: 0...0x10FFFF, using: &rng)
                if let scalar = Unicode.Scalar(value) { name.unicodeScalars.append(scalar) }
            } else {
                name += pieces[Int.random(in: 0..<pieces.count, using: &rng)]
            }
        }
        return name
    }

    static let names: [String] = {
        var rng = Generator(state: seed)
        return (0..<nameCount).map { _ in randomName(&rng) }
    }()

    /// The design of one name in every role; `placeholder` stands in where the name is not used.
    static func design(_ name: String, as role: Int) -> ModelDesign {
        let attribute = AttributeDesign(name: role == 1 ? name : "plain", type: .string)
        switch role {
        case 0:
            return ModelDesign(name: "M", entities: [EntityDesign(name: name, attributes: [attribute])])
        case 1:
            return ModelDesign(
                name: "M",
                entities: [
                    EntityDesign(
                        name: "Holder",
                        attributes: [
                            attribute,
                            AttributeDesign(name: "cache", type: .string, isTransient: true, defaultValue: "c"),
                        ])
                ])
        case 2:
            return ModelDesign(
                name: "M",
                entities: [
                    EntityDesign(
                        name: "Holder",
                        relationships: [RelationshipDesign(name: name, destination: "Holder", isToMany: true)])
                ])
        default:
            return ModelDesign(
                name: "M",
                entities: [
                    EntityDesign(
                        name: "Choice", attributes: [AttributeDesign(name: name, type: .string)],
                        userInfo: ["boiler.enum": "YES", "boiler.rawType": "String"])
                ])
        }
    }

    static let options = GenerationOptions(createsHumanFiles: false)

    @Test("every random name is refused with a typed error or renders without adding a line")
    func refusedOrContained() throws {
        let generator = ModelGenerator(options: Self.options)
        var accepted = 0
        for name in Self.names {
            for role in 0..<4 {
                let files: [GeneratedFile]
                do {
                    files = try generator.render(Self.design(name, as: role), designFile: "M.yaml")
                } catch is ModelGenError {
                    continue
                } catch {
                    Issue.record("name \(name.debugDescription) as role \(role): untyped error \(error)")
                    continue
                }
                accepted += 1
                let plain = try generator.render(
                    Self.design(role == 0 ? "Plain" : "plainName", as: role), designFile: "M.yaml")
                let lines = files.map { $0.contents.split(separator: "\n", omittingEmptySubsequences: false).count }
                let plainLines = plain.map {
                    $0.contents.split(separator: "\n", omittingEmptySubsequences: false).count
                }
                #expect(lines == plainLines, "name \(name.debugDescription) as role \(role) changed the line count")
                #expect(
                    !files.contains {
                        $0.contents.unicodeScalars.contains {
                            SwiftNames.hasForbiddenCharacter(String($0)) && $0 != "\n"
                        }
                    },
                    "name \(name.debugDescription) as role \(role) put a control or format character in the output")
            }
        }
        // The fuzz must exercise both outcomes to mean anything.
        #expect(accepted > Self.nameCount / 2 && accepted < Self.nameCount * 4)
    }

    @Test(
        "the code generated for every accepted name type-checks with -warnings-as-errors",
        .enabled(if: !CompileTests.skipped))
    func acceptedNamesCompile() async throws {
        let generator = ModelGenerator(options: Self.options)
        // One design holding every accepted name: entities, attributes of one struct (with a
        // transient property, so equality and hashing are generated), to-many relationships and
        // String enum cases. A name that clashes with one already taken is left out.
        var design = ModelDesign(
            name: "Fuzz",
            entities: [
                EntityDesign(
                    name: "Holder",
                    attributes: [AttributeDesign(name: "cache", type: .string, isTransient: true, defaultValue: "c")]),
                EntityDesign(
                    name: "Choice", attributes: [AttributeDesign(name: "first", type: .string)],
                    userInfo: ["boiler.enum": "YES", "boiler.rawType": "String"]),
            ])
        // Each name is tried alone first (rendering the whole design per name would be
        // quadratic); clashes with names already taken are then told apart by their mapping.
        var typeStems: Set<String> = ["holder", "choice"]
        var members: Set<String> = ["cache"]
        var memberKeys: Set<String> = ["cache"]
        var cases: Set<String> = ["first"]
        func accepted(_ name: String, as role: Int) -> Bool {
            (try? generator.render(Self.design(name, as: role), designFile: "Fuzz.yaml")) != nil
        }
        // A third of the names become entities, the rest members; a member may not take an
        // entity's type name.
        let split = Self.names.count / 3
        var stems: Set<String> = ["Holder", "Choice"]
        for name in Self.names[..<split] {
            if accepted(name, as: 0), let stem = SwiftNames.identifier(for: name, upper: true),
                typeStems.insert(stem.lowercased()).inserted
            {
                stems.insert(stem)
                design.entities.append(
                    EntityDesign(name: name, attributes: [AttributeDesign(name: "v", type: .integer64)]))
            }
        }
        // Members alternate between attributes and to-many relationships.
        for (offset, name) in Self.names[split...].enumerated() {
            guard let member = SwiftNames.identifier(for: name, upper: false), !stems.contains(member) else { continue }
            if offset.isMultiple(of: 2), accepted(name, as: 1), !memberKeys.contains(name),
                members.insert(member).inserted
            {
                memberKeys.insert(name)
                design.entities[0].attributes.append(AttributeDesign(name: name, type: .string, isOptional: true))
            } else if !offset.isMultiple(of: 2), accepted(name, as: 2), !memberKeys.contains(name),
                members.insert(member).inserted
            {
                memberKeys.insert(name)
                design.entities[0].relationships.append(
                    RelationshipDesign(name: name, destination: "Holder", isToMany: true))
            }
            if accepted(name, as: 3), cases.insert(member).inserted {
                design.entities[1].attributes.append(AttributeDesign(name: name, type: .string))
            }
        }
        // Names that only clash together (a human file `_X.swift` of an entity `_x` and the
        // machine file of an entity `X`) are told apart by the generator: drop what it names.
        for _ in 0..<50 {
            do {
                _ = try generator.render(design, designFile: "Fuzz.yaml")
                break
            } catch ModelGenError.duplicateEntity(_, let entity) {
                let before = design.entities.count
                design.entities.removeAll { $0.name == entity && $0.name != "Holder" && $0.name != "Choice" }
                if design.entities.count == before { break }
            }
        }
        #expect(design.entities.count > 20 && design.entities[0].attributes.count > 20)
        #expect(design.entities[0].relationships.count > 20 && design.entities[1].attributes.count > 20)

        let folder = try Fixtures.temporaryFolder("modelgen-fuzz")
        defer { Fixtures.remove(folder) }
        let files = try generator.render(design, designFile: "Fuzz.yaml")
        var paths: [String] = []
        for file in files { paths.append(try Fixtures.write(file.contents, to: file.name, in: folder).path) }
        let result = try await ChildProcess.run(
            ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-module-name", "Fuzz"] + paths)
        #expect(result.status == 0, "swiftc failed (seed \(Self.seed)):\n\(result.output.prefix(8000))")
    }

}
