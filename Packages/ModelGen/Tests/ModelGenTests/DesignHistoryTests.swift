import Foundation
import Testing

@testable import ModelGen

/// Every version of a design is read, in an order that is certain or refused.
@Suite("Reading every version of a design")
struct DesignHistoryTests {
    /// A bundle in a temp folder with one `.xcdatamodel` per name, each holding an entity named
    /// after its version, and an optional version identifier and `.xccurrentversion`.
    static func bundle(
        _ names: [String], identifiers: [String: String] = [:], current: String? = nil, in folder: URL
    ) throws -> URL {
        let bundle = folder.appendingPathComponent("Model.xcdatamodeld")
        for name in names {
            let identifier = identifiers[name].map { #" userDefinedModelVersionIdentifier="\#($0)""# } ?? ""
            let entity = "E" + String(name.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
            try Fixtures.write(
                #"<model\#(identifier)><entity name="\#(entity)"/></model>"#, to: "\(name).xcdatamodel/contents",
                in: bundle)
        }
        if let current {
            try Fixtures.write(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(current).xcdatamodel</string></dict></plist>
                """, to: ".xccurrentversion", in: bundle)
        }
        return bundle
    }

    static func order(_ history: DesignHistory) -> [String] { history.versions.map(\.name) }

    @Test("a real two-version bundle is read whole, oldest first, current last")
    func swiftGen() throws {
        let history = try DesignHistory.read(from: Fixtures.models.appendingPathComponent("SwiftGenModel.xcdatamodeld"))
        #expect(Self.order(history) == ["Model", "Model 2"])
        #expect(history.current.design.entities.contains { $0.name == "NewEntity" })
        #expect(!history.earlier[0].design.entities.contains { $0.name == "NewEntity" })
        #expect(history.name == "SwiftGenModel" && history.earlier[0].design.name == "SwiftGenModel")
    }

    @Test(
        "names make the order certain when they share a stem and number their versions one way",
        arguments: [
            (["Model 3", "Model", "Model 2"], ["Model", "Model 2", "Model 3"]),
            (["Model_2", "Model_10", "Model_1"], ["Model_1", "Model_2", "Model_10"]),
            (["Version 2", "Version 1"], ["Version 1", "Version 2"]),
            (["Model2", "Model"], ["Model", "Model2"]),
        ])
    func namedOrder(names: [String], expected: [String]) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        #expect(Self.order(try DesignHistory.read(from: Self.bundle(names, in: folder))) == expected)
    }

    @Test(
        "names that leave the order open are refused with how to state it",
        arguments: [
            ["Model", "Model 2", "Model2"],  // two version 2s
            ["Model", "Model_1"],  // which is first?
            ["Model", "Other 2"],  // no common stem
            ["Model 2", "Model_3"],  // two numbering styles
            ["Alpha", "Beta"],
        ])
    func ambiguousNames(names: [String]) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = try Self.bundle(names, in: folder)
        let error = try #require(throws: ModelGenError.self) { try DesignHistory.read(from: bundle) }
        guard case .ambiguousVersionOrder(let file, let reason) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(file == bundle.path)
        #expect(reason.contains("Model.versions"))
        #expect(error.message.contains("oldest first"))
    }

    @Test("the real Ensembles bundle (X, X_0, X_1, X_2; identifiers partly empty) is refused, then read as stated")
    func ensembles() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let copy = folder.appendingPathComponent("CDEEventStoreModel.xcdatamodeld")
        try FileManager.default.copyItem(
            at: Fixtures.models.appendingPathComponent("CDEEventStoreModel.xcdatamodeld"), to: copy)
        let error = try #require(throws: ModelGenError.self) { try DesignHistory.read(from: copy) }
        #expect(
            error.message.contains("'CDEEventStoreModel' and 'CDEEventStoreModel_0' could each be the first version"))
        try FileManager.default.copyItem(
            at: Fixtures.models.appendingPathComponent("CDEEventStoreModel.versions"),
            to: folder.appendingPathComponent("CDEEventStoreModel.versions"))
        let history = try DesignHistory.read(from: copy)
        #expect(
            Self.order(history) == [
                "CDEEventStoreModel", "CDEEventStoreModel_0", "CDEEventStoreModel_1", "CDEEventStoreModel_2",
            ])
        #expect(history.current.design.entities.contains { $0.name == "CDEDataFile" })
    }

    @Test("numeric version identifiers order versions whose names do not")
    func identifiers() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = try Self.bundle(
            ["Gamma", "Alpha", "Beta"], identifiers: ["Alpha": "2", "Beta": "1.10", "Gamma": "1.9"], in: folder)
        #expect(Self.order(try DesignHistory.read(from: bundle)) == ["Gamma", "Beta", "Alpha"])
    }

    @Test("identifiers that contradict the names are refused")
    func contradiction() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = try Self.bundle(["Model", "Model 2"], identifiers: ["Model": "2", "Model 2": "1"], in: folder)
        let error = try #require(throws: ModelGenError.self) { try DesignHistory.read(from: bundle) }
        #expect(error.message.contains("identifiers order them 'Model 2', 'Model'"))
    }

    @Test(".xccurrentversion naming an older version than the newest is refused")
    func currentNotLast() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = try Self.bundle(["Model", "Model 2", "Model 3"], current: "Model 2", in: folder)
        let error = try #require(throws: ModelGenError.self) { try DesignHistory.read(from: bundle) }
        #expect(error.message.contains("'Model 3' comes after it"))
    }

    @Test("a .versions file states the order, and lists versions up to the current one")
    func statedOrder() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = try Self.bundle(["Beta", "Alpha", "Gamma"], current: "Gamma", in: folder)
        try Fixtures.write(
            "# oldest first\nBeta\n\n  Alpha.xcdatamodel  # renamed in 2024\nGamma\n", to: "Model.versions", in: folder)
        #expect(Self.order(try DesignHistory.read(from: bundle)) == ["Beta", "Alpha", "Gamma"])
    }

    @Test(
        "a .versions file that is not exactly the bundle's versions is refused, naming the line",
        arguments: [
            ("Alpha\nBeta\nAlpha\n", "line 3 names 'Alpha' a second time"),
            ("Alpha\n../Beta\nBeta\n", "line 2 names '../Beta'"),
            ("Alpha\n", "does not list 'Beta'"),
            ("Alpha\nBe\u{2028}ta\nBeta", "line 2 names"),
        ])
    func badStatement(text: String, expected: String) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = try Self.bundle(["Alpha", "Beta"], in: folder)
        try Fixtures.write(text, to: "Model.versions", in: folder)
        let error = try #require(throws: ModelGenError.self) { try DesignHistory.read(from: bundle) }
        #expect(error.message.contains(expected), "\(error.message)")
    }

    @Test("renaming identifiers are read from elementID on entities, attributes and relationships")
    func elementID() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let url = try Fixtures.write(
            """
            <model userDefinedModelVersionIdentifier="3">
                <entity name="Article" elementID="Post">
                    <attribute name="hexColor" attributeType="String" elementID="color"/>
                    <relationship name="tags" toMany="YES" destinationEntity="Article" elementID="tag"/>
                </entity>
            </model>
            """, to: "M.xcdatamodel/contents", in: folder)
        let design = try ModelDesign.read(from: url)
        let entity = try #require(design.entities.first)
        #expect(design.versionIdentifier == "3")
        #expect(entity.renamingIdentifier == "Post")
        #expect(entity.attributes.first?.renamingIdentifier == "color")
        #expect(entity.relationships.first?.renamingIdentifier == "tag")
    }

    @Test("a YAML design lists its versions in order, with renamedFrom for renames")
    func yamlVersions() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let url = try Fixtures.write(
            """
            name: Blog
            versions:
              - name: first
                entities:
                  - name: Post
                    attributes: [{name: color, type: string, optional: true}]
              - name: second
                entities:
                  - name: Article
                    renamedFrom: Post
                    attributes: [{name: hexColor, type: string, optional: true, renamedFrom: color}]
            """, to: "Blog.yaml", in: folder)
        let history = try DesignHistory.read(from: url)
        #expect(Self.order(history) == ["first", "second"])
        #expect(history.current.design.entities.first?.renamingIdentifier == "Post")
        #expect(history.current.design.entities.first?.attributes.first?.renamingIdentifier == "color")
        // The single-version reader reads the current version of the same file.
        #expect(try ModelDesign.read(from: url).entities.map(\.name) == ["Article"])
    }

    @Test(
        "a malformed YAML version list is refused at its path",
        arguments: [
            ("versions: []", "versions"),
            ("versions: [{entities: []}]", "versions[0].name"),
            ("versions: [{name: a, entities: []}, {name: a, entities: []}]", "versions[1].name"),
            ("entities: []\nversions: [{name: a, entities: []}]", "entities"),
            ("versions: [3]", "versions[0]"),
        ])
    func badYAMLVersions(text: String, path: String) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let url = try Fixtures.write(text, to: "Bad.yaml", in: folder)
        let error = try #require(throws: ModelGenError.self) { try DesignHistory.read(from: url) }
        guard case .malformedDesign(_, let found, _) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(found == path)
    }
}
