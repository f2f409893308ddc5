import Foundation
import Testing

@testable import ModelGen

@Suite("Reading model designs")
struct DesignReadingTests {
    @Test("an .xcdatamodeld is read at the version .xccurrentversion names")
    func currentVersion() throws {
        let design = try ModelDesign.read(from: Fixtures.models.appendingPathComponent("SwiftGenModel.xcdatamodeld"))
        #expect(design.name == "SwiftGenModel")
        // Only "Model 2" has these entities.
        #expect(design.entities.contains { $0.name == "NewEntity" })
        #expect(design.entities.contains { $0.name == "AbstractEntity" && $0.isAbstract })
    }

    @Test("an .xcdatamodeld without .xccurrentversion is read at its first version")
    func firstVersion() throws {
        let design = try ModelDesign.read(from: Fixtures.models.appendingPathComponent("SpotTestModels.xcdatamodeld"))
        #expect(design.entities.count == 29)
        let gender = try #require(design.entities.first { $0.name == "Gender" })
        #expect(gender.userInfo["State.Enum"] == "YES")
    }

    @Test("the first version is chosen by name when several exist and no marker says which")
    func firstOfSeveral() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = folder.appendingPathComponent("Two.xcdatamodeld")
        let model = #"<model><entity name="%@"/></model>"#
        try Fixtures.write(
            model.replacingOccurrences(of: "%@", with: "Second"), to: "B.xcdatamodel/contents", in: bundle)
        try Fixtures.write(
            model.replacingOccurrences(of: "%@", with: "First"), to: "A.xcdatamodel/contents", in: bundle)
        #expect(try ModelDesign.read(from: bundle).entities.map(\.name) == ["First"])
    }

    @Test("without a marker, a bundle whose versions have a certain order is read at its newest, as its history is")
    func newestWithoutMarker() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = try DesignHistoryTests.bundle(["Model", "Model 2", "Model 10"], in: folder)
        #expect(try ModelDesign.read(from: bundle).entities.map(\.name) == ["EModel10"])
        #expect(try DesignHistory.read(from: bundle).current.design.entities.map(\.name) == ["EModel10"])
    }

    @Test("a bundle whose order is not certain still reads at the version its marker names; its history is refused")
    func ambiguousBundleReadsCurrent() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = try DesignHistoryTests.bundle(["Model", "Model_1", "Model2"], current: "Model_1", in: folder)
        #expect(try ModelDesign.read(from: bundle).entities.map(\.name) == ["EModel1"])
        #expect(throws: ModelGenError.self) { try DesignHistory.read(from: bundle) }
    }

    @Test("both readers refuse the same way what is not a design, or not there")
    func sameRefusals() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let text = try Fixtures.write("hello", to: "notes.txt", in: folder)
        let missing = folder.appendingPathComponent("Missing.yaml")
        for url in [text, missing] {
            var first: String?
            var second: String?
            do { _ = try ModelDesign.read(from: url) } catch let error as ModelGenError { first = error.message }
            do { _ = try DesignHistory.read(from: url) } catch let error as ModelGenError { second = error.message }
            #expect(first != nil && first == second)
        }
    }

    @Test("attributes, relationships, parents and user info are read from the XML")
    func xmlDetails() throws {
        let design = try ModelDesign.read(from: Fixtures.models.appendingPathComponent("mogenerator-test.xcdatamodel"))
        let parent = try #require(design.entities.first { $0.name == "Parent" })
        #expect(parent.parent == "Human")
        let ordered = try #require(parent.relationships.first { $0.name == "orderedChildren" })
        #expect(ordered.isToMany && ordered.isOrdered && ordered.inverse == "parent" && ordered.destination == "Child")
        let transient = try #require(parent.attributes.first { $0.name == "myInt16Transient" })
        #expect(transient.isTransient && transient.isOptional && transient.type == .integer16)
        let human = try #require(design.entities.first { $0.name == "Human" })
        #expect(human.userInfo["key with.dots..."] == #"value with "quotes""#)
        #expect(human.attributes.first { $0.name == "age" }?.defaultValue == "0")
    }

    @Test("fetch requests, configurations, fetched properties and indexes become warnings naming them")
    func unsupportedItemsWarn() throws {
        let design = try ModelDesign.read(from: Fixtures.models.appendingPathComponent("SwiftGenModel.xcdatamodeld"))
        let warnings = design.warnings.joined(separator: "\n")
        #expect(warnings.contains("fetch request 'ObjectFetchRequest'"))
        #expect(warnings.contains("configuration 'Custom'"))
        #expect(warnings.contains("fetched property 'MainEntity.fetchedProperty'"))
        #expect(warnings.contains("fetch index 'NewEntity.byIdentifierIndex'"))
    }

    @Test("a YAML design says what the XML says")
    func yamlMatchesXML() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let yaml = """
            entities:
              - name: Book
                attributes:
                  - { name: author, type: String, optional: true }
                  - { name: blurb, type: String, optional: true }
                  - { name: price, type: String, optional: true }
                  - { name: title, type: String, optional: true }
            """
        let url = try Fixtures.write(yaml, to: "TSBoilerplateModel.yaml", in: folder)
        let fromYAML = try ModelGenerator().render(try ModelDesign.read(from: url), designFile: "Model")
        let xml = Fixtures.models.appendingPathComponent("TSBoilerplateModel.xcdatamodeld")
        let fromXML = try ModelGenerator().render(try ModelDesign.read(from: xml), designFile: "Model")
        #expect(fromYAML == fromXML)
    }

    @Test("a JSON design reads like its YAML twin, shorthand keys included")
    func jsonMatchesYAML() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let yaml = """
            name: Shop
            entities:
              - name: Item
                attributes:
                  - { name: id, type: UUID, immutable: true }
                  - { name: price, type: Decimal, default: "0" }
                  - { name: tags, type: Transformable, swiftType: "[String]", optional: true }
                relationships:
                  - { name: shop, destination: Shop, reference: id, optional: true }
              - name: Shop
                attributes:
                  - { name: id, type: UUID }
            """
        let json = """
            {"name": "Shop", "entities": [
              {"name": "Item", "attributes": [
                {"name": "id", "type": "UUID", "immutable": true},
                {"name": "price", "type": "Decimal", "default": "0"},
                {"name": "tags", "type": "Transformable", "swiftType": "[String]", "optional": true}],
               "relationships": [{"name": "shop", "destination": "Shop", "reference": "id", "optional": true}]},
              {"name": "Shop", "attributes": [{"name": "id", "type": "UUID"}]}]}
            """
        let fromYAML = try ModelDesign.read(from: try Fixtures.write(yaml, to: "Shop.yaml", in: folder))
        let fromJSON = try ModelDesign.read(from: try Fixtures.write(json, to: "Shop.json", in: folder))
        #expect(fromYAML == fromJSON)
        let item = try #require(fromYAML.entities.first)
        #expect(item.attributes[0].userInfo["boiler.immutable"] == "true")
        #expect(item.relationships[0].userInfo["boiler.reference"] == "id")
        let files = try ModelGenerator().render(fromYAML, designFile: "Shop.yaml")
        let machine = try #require(files.first { $0.name == "_Item.swift" }).contents
        #expect(machine.contains("public let id: UUID"))
        #expect(machine.contains("public var tags: [String]?"))
        #expect(machine.contains("public var shop: UUID?"))
        #expect(machine.contains("price: Decimal = 0"))
    }

    @Test("unknown keys in a YAML design are warnings that name them")
    func unknownYAMLKeys() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let url = try Fixtures.write(
            "entities:\n  - name: A\n    colour: red\n    attributes:\n      - { name: x, type: int16, size: 3 }\n",
            to: "A.yml", in: folder)
        let design = try ModelDesign.read(from: url)
        #expect(design.warnings.contains { $0.contains("'colour'") && $0.contains("entities[0]") })
        #expect(design.warnings.contains { $0.contains("'size'") && $0.contains("entities[0].attributes[0]") })
    }
}
