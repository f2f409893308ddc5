import Testing

@testable import ModelGen

@Suite("Resolving designs into Swift")
struct ResolvingTests {
    private func resolve(_ entities: [EntityDesign]) throws -> ResolvedModel {
        try ModelResolver.resolve(ModelDesign(name: "M", entities: entities), file: "M.yaml")
    }

    @Test(
        "names become Swift identifiers; reserved words are back-ticked",
        arguments: [
            ("title", "title"), ("default", "`default`"), ("first name", "firstName"), ("first-name", "firstName"),
            ("1st", "_1st"), ("ss_number", "ss_number"), ("class", "`class`"), ("café", "café"),
            ("in", "`in`"),
        ])
    func identifiers(name: String, expected: String) throws {
        let model = try resolve([EntityDesign(name: "A", attributes: [AttributeDesign(name: name, type: .string)])])
        let property = try #require(model.entities.first?.properties.first)
        #expect(property.swiftName == expected)
        #expect(property.key == name)
    }

    @Test(
        "names the generated code needs for itself are refused",
        arguments: ["self", "Type", "init", "modelVersionHash"])
    func reservedMembers(name: String) {
        #expect(throws: ModelGenError.invalidName(file: "M.yaml", entity: "A", property: name, name: name)) {
            try resolve([EntityDesign(name: "A", attributes: [AttributeDesign(name: name, type: .string)])])
        }
    }

    @Test("names that collide once sanitised are duplicates")
    func sanitisedCollision() {
        #expect(throws: ModelGenError.duplicateProperty(file: "M.yaml", entity: "A", property: "firstName")) {
            try resolve([
                EntityDesign(
                    name: "A",
                    attributes: [
                        AttributeDesign(name: "first-name", type: .string),
                        AttributeDesign(name: "firstName", type: .string),
                    ])
            ])
        }
    }

    @Test("each storage type maps to its Swift type", arguments: AttributeType.allCases)
    func storageTypes(type: AttributeType) throws {
        let attribute = AttributeDesign(
            name: "value", type: type, userInfo: type == .transformable ? ["boiler.type": "[Int]"] : [:])
        let model = try resolve([EntityDesign(name: "A", attributes: [attribute])])
        #expect(model.entities[0].properties[0].baseType == (type.swiftType ?? "[Int]"))
    }

    @Test("Spot's and mogenerator's user-info keys carry over: immutable, type override, ignore")
    func carriedOverKeys() throws {
        let model = try resolve([
            EntityDesign(
                name: "A",
                attributes: [
                    AttributeDesign(name: "a", type: .string, userInfo: ["State.Immutable": "YES"]),
                    AttributeDesign(name: "b", type: .integer16, userInfo: ["mogenerator.readonly": "true"]),
                    AttributeDesign(name: "c", type: .string, userInfo: ["State.Type": "URL"]),
                    AttributeDesign(name: "d", type: .integer16, userInfo: ["attributeValueScalarType": "Level"]),
                    AttributeDesign(name: "e", type: .decimal, userInfo: ["State.Type": "NSDecimalNumber"]),
                    AttributeDesign(name: "f", type: .string, userInfo: ["boiler.ignore": "YES"]),
                ]),
            EntityDesign(name: "B", userInfo: ["mogenerator.ignore": "anything"]),
        ])
        #expect(model.entities.map(\.name) == ["A"])
        let properties = model.entities[0].properties
        #expect(properties.map(\.key) == ["a", "b", "c", "d", "e"])
        #expect(properties.map(\.isImmutable) == [true, true, false, false, false])
        #expect(properties.map(\.baseType) == ["String", "Int16", "URL", "Level", "Decimal"])
    }

    @Test("Spot's keys spelled Spot.* mean what State.* means, and unknown Spot.* keys are warned about")
    func spotNamespace() throws {
        let model = try resolve([
            EntityDesign(
                name: "A",
                attributes: [
                    AttributeDesign(name: "a", type: .string, userInfo: ["Spot.Immutable": "YES"]),
                    AttributeDesign(name: "c", type: .string, userInfo: ["Spot.Type": "URL"]),
                    AttributeDesign(name: "f", type: .string, userInfo: ["Spot.Ignore": "YES"]),
                ])
        ])
        let properties = model.entities[0].properties
        #expect(properties.map(\.key) == ["a", "c"])
        #expect(properties.map(\.isImmutable) == [true, false])
        #expect(properties.map(\.baseType) == ["String", "URL"])
        let userInfo = ["Spot.Dissolve": "YES", "Spot.Colour": "red", "State.Immutable": "YES", "myKey": "mine"]
        #expect(
            userInfo.unknownKeyWarnings(at: "attribute 'A.a'") == [
                "Unknown user-info key 'Spot.Colour' on attribute 'A.a'; ignored.",
                "User-info key 'Spot.Dissolve' on attribute 'A.a' is not supported for value types; ignored.",
            ])
    }

    @Test("inherited properties come first; abstract parents still get a type")
    func inheritance() throws {
        let model = try resolve([
            EntityDesign(
                name: "Base", isAbstract: true, attributes: [AttributeDesign(name: "id", type: .uuid)]),
            EntityDesign(name: "Leaf", parent: "Base", attributes: [AttributeDesign(name: "name", type: .string)]),
        ])
        let leaf = try #require(model.entities.first { $0.name == "Leaf" })
        #expect(leaf.properties.map(\.key) == ["id", "name"])
        #expect(leaf.properties[0].inheritedFrom == "Base")
        #expect(model.entities.contains { $0.name == "Base" && $0.isAbstract })
    }

    @Test("defaults: Core Data's for required attributes, none for optional ones, Spot's expressions verbatim")
    func defaults() throws {
        let model = try resolve([
            EntityDesign(
                name: "A",
                attributes: [
                    AttributeDesign(name: "count", type: .integer32, defaultValue: "10"),
                    AttributeDesign(name: "ratio", type: .double, defaultValue: "0.5"),
                    AttributeDesign(name: "whole", type: .integer32, defaultValue: "0.0"),
                    AttributeDesign(name: "flag", type: .boolean, defaultValue: "YES"),
                    AttributeDesign(name: "label", type: .string, defaultValue: "say \"hi\""),
                    AttributeDesign(name: "maybe", type: .integer64, isOptional: true, defaultValue: "0"),
                    AttributeDesign(
                        name: "list", type: .string, userInfo: ["State.Type": "[String]", "State.Value": "[\"a\"]"]),
                    AttributeDesign(name: "text", type: .string, userInfo: ["State.Value": "plain"]),
                    AttributeDesign(name: "bad", type: .integer16, defaultValue: "lots"),
                ])
        ])
        let defaults = model.entities[0].properties.map(\.defaultValue)
        #expect(defaults == ["10", "0.5", "0", "true", #""say \"hi\"""#, nil, #"["a"]"#, #""plain""#, nil])
        #expect(model.warnings.contains { $0.contains("'lots'") && $0.contains("'A.bad'") })
    }

    @Test("enum entities become String, Int or associated-value enums")
    func enums() throws {
        let model = try resolve([
            EntityDesign(
                name: "Mood",
                attributes: [
                    AttributeDesign(name: "happy", type: .string),
                    AttributeDesign(name: "sad", type: .string, userInfo: ["boiler.rawValue": "SAD"]),
                ],
                userInfo: ["boiler.enum": "YES", "boiler.rawType": "String"]),
            EntityDesign(
                name: "Level",
                attributes: [
                    AttributeDesign(name: "low", type: .string, userInfo: ["boiler.rawValue": "0"]),
                    AttributeDesign(name: "high", type: .string, userInfo: ["State.Value": "10"]),
                ],
                userInfo: ["State.Enum": "YES", "State.Type": "Int"]),
            EntityDesign(
                name: "Shape",
                attributes: [
                    AttributeDesign(name: "circle", type: .double),
                    AttributeDesign(name: "label", type: .string, isOptional: true),
                ],
                userInfo: ["State.Enum": "YES"]),
        ])
        let byName = Dictionary(uniqueKeysWithValues: model.entities.map { ($0.name, $0) })
        #expect(byName["Mood"]?.kind == .rawEnum(rawType: "String"))
        #expect(byName["Mood"]?.cases.map(\.rawValue) == [#""happy""#, #""SAD""#])
        #expect(byName["Level"]?.cases.map(\.rawValue) == ["0", "10"])
        #expect(byName["Shape"]?.kind == .associatedEnum)
        #expect(byName["Shape"]?.cases.map(\.associatedType) == ["Double", "String?"])
    }

    @Test("to-one loops become identifiers; to-many stay arrays of values; the choice is configurable")
    func cycles() throws {
        let model = try resolve([
            EntityDesign(
                name: "Person", attributes: [AttributeDesign(name: "id", type: .uuid)],
                relationships: [
                    RelationshipDesign(name: "partner", destination: "Person", inverse: "partner", isOptional: true),
                    RelationshipDesign(name: "pets", destination: "Pet", inverse: "owner", isToMany: true),
                ]),
            EntityDesign(
                name: "Pet",
                relationships: [
                    RelationshipDesign(name: "owner", destination: "Person", inverse: "pets", isOptional: true),
                    RelationshipDesign(
                        name: "vet", destination: "Person", isOptional: true, userInfo: ["boiler.reference": "id"]),
                ]),
        ])
        let person = try #require(model.entities.first { $0.name == "Person" })
        #expect(person.properties.map(\.type) == ["UUID", "UUID?", "[Pet]"])
        #expect(person.properties[1].relationship?.isReference == true)
        let pet = try #require(model.entities.first { $0.name == "Pet" })
        #expect(pet.properties.map(\.type) == ["Person?", "UUID?"])
        #expect(model.warnings.contains { $0.contains("'Person.partner'") })
    }

    @Test("unsupported and unknown keys in our namespaces are warnings; other keys are the user's data")
    func keyWarnings() throws {
        let model = try resolve([
            EntityDesign(
                name: "A", userInfo: ["State.Protocol": "YES", "boiler.colour": "red", "key": "value"])
        ])
        #expect(model.warnings.contains { $0.contains("'State.Protocol'") && $0.contains("not supported") })
        #expect(model.warnings.contains { $0.contains("'boiler.colour'") })
        #expect(!model.warnings.contains { $0.contains("'key'") })
    }
}
