import Foundation
import Testing

@testable import Serialization

// The path a stored document takes to the current model version.

private struct DottedVersion: Codable, Versioned, Equatable {
    static let version = "2.0"
    static let migrations = [
        Migration(from: "1.0") { try $0.rename("label", to: "name") },
        Migration(from: "1.1") { $0["size"] = .int(0) },
    ]
    var name: String
    var size: Int
}

private struct Leaf: Codable, Versioned, Equatable {
    static let version = 3
    static let migrations = [
        Migration(from: 1) { try $0.rename("v", to: "value") },
        Migration(from: 2) { $0.update("value") { .int(($0.intValue ?? 0) * 10) } },
    ]
    var value: Int
}

private struct Branch: Codable, Versioned, Equatable {
    static let version = 2
    static let migrations = [Migration(from: 1) { try $0.rename("items", to: "leaves") }]
    var leaves: [Leaf]
}

private struct BrokenStep: Codable, Versioned {
    static let version = 2
    static let migrations = [Migration(from: 1) { try $0.rename("missing", to: "present") }]
    var present: Int
}

@Suite("Migrations: order, nesting, formats and a failed step")
struct MigrationPathTests {
    let json = Serializer(.json)

    @Test("dotted string versions migrate in order")
    func dottedStringVersions() throws {
        let back = try json.read(DottedVersion.self, from: #"{"model_version": "1.0", "label": "x"}"#)
        #expect(back == DottedVersion(name: "x", size: 0))
        let text = try json.string(back)
        #expect(text == #"{"model_version":"2.0","name":"x","size":0}"#)
        let error = serializationError {
            _ = try json.read(DottedVersion.self, from: #"{"model_version": "10.0", "name": "x", "size": 1}"#)
        }
        guard case .newerVersion? = error else {
            Testing.Issue.record("\(String(describing: error))")
            return
        }
    }

    @Test("nested models in arrays migrate independently of their parent")
    func nestedInArrays() throws {
        let text = #"""
            {"model_version": 1, "items": [
              {"model_version": 1, "v": 1},
              {"model_version": 2, "value": 2},
              {"model_version": 3, "value": 3}
            ]}
            """#
        let branch = try json.read(Branch.self, from: text)
        #expect(branch.leaves.map(\.value) == [10, 20, 3])
        let top = try json.read([Branch].self, from: "[\(text)]")
        #expect(top == [branch])
        let tree = try json.tree(branch)
        #expect(tree[path: "leaves[0].model_version"] == .int(3))
        #expect(tree["model_version"] == .int(2))
    }

    @Test("a failed step is named, with the model and key path")
    func failedStepNamed() throws {
        let text = #"{"list": [{"model_version": 2, "present": 1}, {"model_version": 1, "other": 2}]}"#
        let error = serializationError { _ = try json.read([String: [BrokenStep]].self, from: text) }
        guard case .migrationFailed(let step, _, let location)? = error else {
            Testing.Issue.record("\(String(describing: error))")
            return
        }
        #expect(step.contains("1 → 2"))
        #expect(step.contains("BrokenStep"))
        #expect(location.keyPath.description.hasPrefix("list[1]"))
        #expect(error?.message.contains("missing") == true)
    }

    @Test("migrations run in every format, in one read", arguments: everyFormat)
    func migrationsInEveryFormat(format: any DataFormat) throws {
        let old: KeyValue = ["model_version": 1, "items": [["model_version": 1, "v": 4]]]
        let serializer = Serializer(format: format)
        let back = try serializer.read(Branch.self, from: try format.data(from: old))
        #expect(back.leaves == [Leaf(value: 40)])
    }
}
