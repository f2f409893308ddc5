import Foundation
import Testing

@testable import ModelGen

/// Nothing in a design or an option can become Swift code it was not meant to be: names with
/// line breaks or invisible characters are refused, user-info types, defaults, imports and
/// conformances are checked, and text printed in comments cannot end the comment.
@Suite("Name injection")
struct NameInjectionTests {
    func render(
        _ entities: [EntityDesign], options: GenerationOptions = GenerationOptions(), file: String = "M.yaml"
    )
        throws -> [GeneratedFile]
    {
        try ModelGenerator(options: options).render(ModelDesign(name: "M", entities: entities), designFile: file)
    }

    static let injected = "x\n}\nfunc evil() {\n"

    @Test(
        "a name with a line break, control or bidi character is refused, naming file, entity and property",
        arguments: [injected, "a\rb", "a\u{2028}b", "ab\u{202E}cd", "a\u{200B}b", "tab\there", "nul\u{0}"])
    func controlCharactersInNames(name: String) throws {
        // As an attribute, a relationship, an enum case and an entity.
        let attribute = [EntityDesign(name: "A", attributes: [AttributeDesign(name: name, type: .string)])]
        #expect(throws: ModelGenError.invalidName(file: "M.yaml", entity: "A", property: name, name: name)) {
            try render(attribute)
        }
        let relationship = [
            EntityDesign(name: "A", relationships: [RelationshipDesign(name: name, destination: "A", isToMany: true)])
        ]
        #expect(throws: ModelGenError.invalidName(file: "M.yaml", entity: "A", property: name, name: name)) {
            try render(relationship)
        }
        let enumCase = [
            EntityDesign(
                name: "E", attributes: [AttributeDesign(name: name, type: .string)],
                userInfo: ["boiler.enum": "YES", "boiler.rawType": "String"])
        ]
        #expect(throws: ModelGenError.invalidName(file: "M.yaml", entity: "E", property: name, name: name)) {
            try render(enumCase)
        }
        #expect(throws: ModelGenError.invalidName(file: "M.yaml", entity: name, property: nil, name: name)) {
            try render([EntityDesign(name: name)])
        }
        let typeName = [EntityDesign(name: "A", userInfo: ["boiler.typeName": name])]
        #expect(throws: ModelGenError.invalidName(file: "M.yaml", entity: "A", property: nil, name: name)) {
            try render(typeName)
        }
    }

    @Test("the refusal message shows the name escaped, on one line")
    func messageIsOneLine() {
        let error = ModelGenError.invalidName(file: "M.yaml", entity: "A", property: Self.injected, name: Self.injected)
        #expect(!error.message.contains("\n"))
        #expect(error.message.contains(#"x\n}\nfunc evil() {\n"#))
    }

    @Test("a YAML design with a newline in a name writes nothing and names the file")
    func yamlFile() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let design = try Fixtures.write(
            "entities:\n  - name: Note\n    attributes:\n      - { name: \"title\\n}\\nfunc evil() {\", type: String }\n",
            to: "Notes.yaml", in: folder)
        let output = folder.appendingPathComponent("out")
        #expect {
            try ModelGenerator().generate(from: design, into: output)
        } throws: { error in
            guard case .invalidName(let file, let entity, let property, _) = error as? ModelGenError else {
                return false
            }
            return file == "Notes.yaml" && entity == "Note" && property == "title\n}\nfunc evil() {"
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test(
        "names that would take a name the generated code needs are refused",
        arguments: [
            ("String", nil), ("Codable", nil), ("Foundation", nil), ("A", "hashValue"), ("A", "CodingKeys"),
            ("A", "String"), ("A", "Data"),
        ])
    func collidingNames(entity: String, property: String?) throws {
        var design = EntityDesign(name: entity)
        if let property { design.attributes = [AttributeDesign(name: property, type: .string)] }
        #expect {
            try render([design])
        } throws: { error in
            guard case .invalidName = error as? ModelGenError else { return false }
            return true
        }
    }

    @Test("a member named like a type its entity's code mentions is refused: it would shadow the type")
    func memberShadowsType() throws {
        let entities = [
            EntityDesign(
                name: "Note",
                attributes: [
                    AttributeDesign(name: "Color", type: .transformable, userInfo: ["boiler.type": "[Color]"])
                ]),
            EntityDesign(name: "Label", relationships: [RelationshipDesign(name: "Note", destination: "Note")]),
        ]
        #expect(throws: ModelGenError.invalidName(file: "M.yaml", entity: "Note", property: "Color", name: "Color")) {
            try render([entities[0]])
        }
        #expect(throws: ModelGenError.invalidName(file: "M.yaml", entity: "Label", property: "Note", name: "Note")) {
            try render([EntityDesign(name: "Note"), entities[1]])
        }
    }

    static let badUserInfo: [(label: String, entity: EntityDesign, key: String)] = [
        (
            "type with a line break",
            EntityDesign(
                name: "A",
                attributes: [
                    AttributeDesign(
                        name: "a", type: .transformable, userInfo: ["boiler.type": "String\nfunc evil() {}"])
                ]),
            "boiler.type"
        ),
        (
            "type that adds a property",
            EntityDesign(
                name: "A",
                attributes: [
                    AttributeDesign(name: "a", type: .transformable, userInfo: ["State.Type": "Int, evil: String"])
                ]),
            "State.Type"
        ),
        (
            "type that closes the struct",
            EntityDesign(
                name: "A",
                attributes: [AttributeDesign(name: "a", type: .transformable, userInfo: ["boiler.type": "Int }"])]),
            "boiler.type"
        ),
        (
            "custom class that is not a type",
            EntityDesign(
                name: "A",
                attributes: [AttributeDesign(name: "a", type: .transformable, customClassName: "X; struct Y")]
            ),
            "customClassName"
        ),
        (
            "default that closes the initializer",
            EntityDesign(
                name: "A",
                attributes: [
                    AttributeDesign(name: "a", type: .integer32, userInfo: ["boiler.default": "0) { }; init("])
                ]
            ),
            "boiler.default"
        ),
        (
            "default that adds a parameter",
            EntityDesign(
                name: "A",
                attributes: [
                    AttributeDesign(name: "a", type: .integer32, userInfo: ["boiler.default": "0, evil: Int = 1"])
                ]
            ),
            "boiler.default"
        ),
        (
            "default that opens a comment",
            EntityDesign(
                name: "A",
                attributes: [AttributeDesign(name: "a", type: .integer32, userInfo: ["boiler.default": "0 /*"])]
            ),
            "boiler.default"
        ),
        (
            "relationship default with a line break",
            EntityDesign(
                name: "A",
                relationships: [
                    RelationshipDesign(
                        name: "r", destination: "A", isToMany: true, userInfo: ["boiler.default": "[]\nfunc evil() {}"])
                ]),
            "boiler.default"
        ),
        (
            "import that is not a module name",
            EntityDesign(name: "A", userInfo: ["boiler.import": "Foundation\nfunc evil() {}"]),
            "boiler.import"
        ),
        (
            "attribute import that is not a module name",
            EntityDesign(
                name: "A",
                attributes: [AttributeDesign(name: "a", type: .string, userInfo: ["State.Import": "UIKit; struct X"])]),
            "State.Import"
        ),
        (
            "conformance that is not a protocol name",
            EntityDesign(name: "A", userInfo: ["boiler.conformances": "Identifiable {}\nstruct X: Codable"]),
            "boiler.conformances"
        ),
    ]

    @Test("user-info strings that are not one type, expression or name are refused", arguments: 0..<badUserInfo.count)
    func userInfoInjection(index: Int) throws {
        let (label, entity, key) = Self.badUserInfo[index]
        #expect(throws: ModelGenError.self, "\(label)") { try render([entity]) }
        do {
            _ = try render([entity])
        } catch let error as ModelGenError {
            guard case .invalidUserInfo(let file, let named, _, let reported, _) = error else {
                Issue.record("\(label): expected invalidUserInfo, got \(error)")
                return
            }
            #expect(file == "M.yaml" && named == "A" && reported == key, "\(label)")
            #expect(!error.message.contains("\n"), "\(label)")
        }
    }

    @Test("ordinary types, defaults, imports and conformances are still accepted")
    func ordinaryValuesAccepted() throws {
        let entity = EntityDesign(
            name: "A",
            attributes: [
                AttributeDesign(name: "map", type: .transformable, userInfo: ["boiler.type": "[String: [Int]]"]),
                AttributeDesign(name: "tags", type: .transformable, userInfo: ["boiler.type": "Set<String>"]),
                AttributeDesign(name: "pair", type: .transformable, userInfo: ["boiler.type": "Swift.Optional<Int>"]),
                AttributeDesign(name: "n", type: .integer32, userInfo: ["boiler.default": "max(1, 2) * [3, 4].count"]),
                AttributeDesign(name: "s", type: .string, userInfo: ["boiler.default": #""a, b; // c \" d""#]),
                AttributeDesign(name: "d", type: .date, userInfo: ["boiler.default": "Date(timeIntervalSince1970: 0)"]),
            ],
            userInfo: ["boiler.import": "Foundation, Dispatch", "boiler.conformances": "Identifiable, Swift.Equatable"])
        let machine = try #require(try render([entity]).first).contents
        #expect(machine.contains("var map: [String: [Int]]"))
        #expect(machine.contains(#"s: String = "a, b; // c \" d""#))
        #expect(machine.contains("Hashable, Identifiable, Swift.Equatable {"))
        #expect(machine.contains("import Dispatch\n"))
    }

    @Test(
        "options that are not names are refused",
        arguments: [
            GenerationOptions(imports: ["Foundation\nfunc evil() {}"]), GenerationOptions(imports: ["Foo Bar"]),
            GenerationOptions(conformances: ["Equatable, Evil"]), GenerationOptions(conformances: ["X {}\nstruct Y"]),
            GenerationOptions(conformances: ["class"]), GenerationOptions(accessLevel: "public func"),
        ])
    func badOptions(options: GenerationOptions) throws {
        #expect {
            try render([EntityDesign(name: "A")], options: options)
        } throws: { error in
            guard case .invalidOption(let option, _) = error as? ModelGenError else { return false }
            return !option.contains("\n")
        }
    }

    @Test("text printed in comments cannot end them: the design file's name and the model's name")
    func commentsAreEscaped() throws {
        let file = "M\n}\nfunc evil() {} /* */.yaml"
        let machine = try #require(try render([EntityDesign(name: "A")], file: file).first).contents
        #expect(!machine.contains("\nfunc evil"))
        #expect(machine.contains(#"M\n}\nfunc evil() {} / * * /.yaml"#))

        let templates = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(templates) }
        try Fixtures.write(
            "{{% CONTENT_TYPE: TEXT}}\n/* {{model.name}} {{entity.name}} */\nlet ok = 1\n", to: "machine.mustache",
            in: templates)
        let design = ModelDesign(name: "x */ let evil = 1 /* \u{202E}", entities: [EntityDesign(name: "A")])
        let files = try ModelGenerator(options: GenerationOptions(templateDirectory: templates)).render(
            design, designFile: "M.yaml")
        #expect(files.first?.contents == "/* x * / let evil = 1 / * \\u{202e} A */\nlet ok = 1\n")
    }

    @Test("commentText escapes line breaks, controls and comment delimiters and leaves the rest alone")
    func commentText() {
        #expect(SwiftNames.commentText("plain 'name' ünïcode") == "plain 'name' ünïcode")
        #expect(SwiftNames.commentText("a*/b/*c\nd\re\u{7}") == #"a* /b/ *c\nd\re\u{7}"#)
        #expect(SwiftNames.commentText("//x") == "//x")
    }
}
