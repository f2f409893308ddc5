import Foundation
import ModelGen
import Testing

/// The real model designs in `Tests/Fixtures/models`, and where tests keep their files.
enum Fixtures {
    /// A design from Tests/Fixtures/models with the module name the compile check gives it.
    struct Design: Sendable, CustomTestStringConvertible {
        var file: String
        var module: String
        var url: URL { Fixtures.models.appendingPathComponent(file) }
        var testDescription: String { file }
    }

    /// The repository root.
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<6 { url.deleteLastPathComponent() }
        return url
    }()

    /// The name a package that depends on the repository by path calls it by: SwiftPM names a
    /// path dependency after its folder, which is whatever the checkout is called.
    static let kitPackage = repositoryRoot.lastPathComponent.lowercased()

    /// `Tests/Fixtures/models` in the repository (sources and licences in its README).
    static let models = repositoryRoot.appendingPathComponent("Tests/Fixtures/models")

    /// This package's folder.
    static let package = repositoryRoot.appendingPathComponent("Packages/ModelGen")

    /// Where golden output lives.
    static let golden = package.appendingPathComponent("Tests/ModelGenTests/Golden")

    static let all: [Design] = [
        Design(file: "CDEEventStoreModel.xcdatamodeld", module: "Ensembles"),
        Design(file: "mogenerator-test.xcdatamodel", module: "Mogenerator"),
        Design(file: "MogenSwiftTest.xcdatamodeld", module: "MogenSwift"),
        Design(file: "SpotTestModels.xcdatamodeld", module: "Spot"),
        Design(file: "SwiftGenModel.xcdatamodeld", module: "SwiftGen"),
        Design(file: "TSBoilerplateModel.xcdatamodeld", module: "TSBoilerplate"),
    ]

    /// A fresh temporary folder, removed by the caller with ``remove(_:)``.
    static func temporaryFolder(_ label: String = "modelgen") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `name` inside `folder` and returns its URL.
    @discardableResult
    static func write(_ text: String, to name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// The files of `folder` and their bytes, by name.
    static func snapshot(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return result
    }

    /// A synthetic design: `entities` entities of `attributes` attributes and `relationships`
    /// relationships each (to-many, to the following entities), as the benchmark uses.
    static func synthetic(entities: Int, attributes: Int, relationships: Int) -> ModelDesign {
        let types: [AttributeType] = [.string, .integer64, .double, .boolean, .date, .uuid, .decimal, .binary]
        var design = ModelDesign(name: "Synthetic")
        for index in 0..<entities {
            var entity = EntityDesign(name: "Entity\(index)")
            for attribute in 0..<attributes {
                entity.attributes.append(
                    AttributeDesign(
                        name: "field\(attribute)", type: types[attribute % types.count], isOptional: attribute % 3 == 0)
                )
            }
            for relationship in 0..<relationships {
                entity.relationships.append(
                    RelationshipDesign(
                        name: "link\(relationship)", destination: "Entity\((index + relationship + 1) % entities)",
                        isToMany: true))
            }
            design.entities.append(entity)
        }
        return design
    }
}
