import Foundation
import Testing

@testable import Serialization

struct Plain: Codable, Versioned, Equatable {
    static let version = 1
    var name: String
}

struct FiveSteps: Codable, Versioned, Equatable {
    static let version = 6
    static let migrations = [
        Migration(from: 1) { try $0.rename("n", to: "name") },
        Migration(from: 2) { $0["count"] = .int(0) },
        Migration(from: 3) { $0.update("count") { .int(($0.intValue ?? 0) + 10) } },
        Migration(from: 4) { try $0.move("legacy.flag", to: "flag") },
        Migration(from: 5) { $0.remove("legacy") },
    ]
    var name: String
    var count: Int
    var flag: Bool
}

struct Failing: Codable, Versioned {
    static let version = 3
    static let migrations = [
        Migration(from: 1) { _ in },
        Migration(from: 2) { try $0.rename("absent", to: "present") },
    ]
    var present: String
}

struct StringVersioned: Codable, Versioned, Equatable {
    static let version = "2.0"
    static let versionKey = "schema"
    static let missingVersion = MissingVersionPolicy.reject
    static let migrations = [Migration(from: "1.9") { try $0.rename("old", to: "new") }]
    var new: Int
}

struct Parent: Codable, Versioned, Equatable {
    static let version = 2
    static let migrations = [Migration(from: 1) { try $0.rename("kids", to: "children") }]
    var children: [FiveSteps]
}

@Suite("Versioning and migration")
struct VersioningTests {
    let json = Serializer(.json)

    @Test("encoding stamps the current version under the version key")
    func stamping() throws {
        #expect(try json.string(Plain(name: "a")) == #"{"model_version":1,"name":"a"}"#)
        #expect(try KeyValue(encoding: StringVersioned(new: 1))["schema"] == "2.0")
    }

    @Test("current data runs no migration (0 steps)")
    func zeroSteps() throws {
        #expect(try json.read(Plain.self, from: #"{"model_version":1,"name":"a"}"#) == Plain(name: "a"))
    }

    @Test("one step runs")
    func oneStep() throws {
        let text = #"{"schema":"1.9","old":5}"#
        #expect(try json.read(StringVersioned.self, from: text) == StringVersioned(new: 5))
    }

    @Test("five steps run in order, in one parse")
    func fiveSteps() throws {
        let text = #"{"model_version":1,"n":"x","legacy":{"flag":true}}"#
        #expect(try json.read(FiveSteps.self, from: text) == FiveSteps(name: "x", count: 10, flag: true))
        #expect(
            try json.read(FiveSteps.self, from: #"{"model_version":4,"name":"x","count":3,"legacy":{"flag":false}}"#)
                == FiveSteps(name: "x", count: 3, flag: false))
    }

    @Test("a missing version means the oldest one by default")
    func missingVersion() throws {
        #expect(try json.read(FiveSteps.self, from: #"{"n":"x","legacy":{"flag":true}}"#).count == 10)
        #expect {
            try json.read(StringVersioned.self, from: #"{"new":1}"#)
        } throws: { error in
            guard case .missingVersion("schema", _)? = error as? SerializationError else { return false }
            return true
        }
    }

    @Test("newer data is a typed error")
    func newer() throws {
        #expect {
            try json.read(Plain.self, from: #"{"model_version":7,"name":"a"}"#)
        } throws: { error in
            guard case .newerVersion(found: 7, current: 1, _)? = error as? SerializationError else { return false }
            return true
        }
    }

    @Test("a failing step is named, with the file, format and key path")
    func failingStep() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("failing.json")
        try Data(#"[{"model_version":1,"other":"x"}]"#.utf8).write(to: url)
        #expect {
            try json.read([Failing].self, from: url)
        } throws: { error in
            guard let error = error as? SerializationError, case .migrationFailed(let step, _, let location) = error
            else { return false }
            return step.contains("2 → 3") && location.file == url && location.format == "JSON"
                && location.keyPath.description.hasPrefix("[0]") && error.message.contains("failing.json")
        }
    }

    @Test("a version with no path to the current one is an error")
    func noPath() throws {
        #expect {
            try json.read(StringVersioned.self, from: #"{"schema":"1.5","old":1}"#)
        } throws: { error in
            guard case .noMigrationPath(from: "1.5", to: "2.0", _)? = error as? SerializationError else { return false }
            return true
        }
    }

    @Test("nested models migrate independently of their parent")
    func nested() throws {
        let text =
            #"{"model_version":1,"kids":[{"model_version":1,"n":"a","legacy":{"flag":true}},{"model_version":6,"name":"b","count":1,"flag":false}]}"#
        let parent = try json.read(Parent.self, from: text)
        #expect(
            parent.children == [
                FiveSteps(name: "a", count: 10, flag: true), FiveSteps(name: "b", count: 1, flag: false),
            ])
        let tree = try KeyValue(encoding: parent)
        #expect(tree[path: "children[0].model_version"] == 6)
        #expect(tree["model_version"] == 2)
    }

    @Test("versions order numerically")
    func ordering() {
        #expect(ModelVersion("1.10") > ModelVersion("1.9"))
        #expect(ModelVersion(2) > ModelVersion(1))
        #expect(ModelVersion("2") == ModelVersion("2"))
    }

    @Test("migrated(_:) brings a stored tree to the current version without decoding it")
    func migratedTree() throws {
        let stored = try JSONFormat().tree(
            from: Data(#"{"model_version":1,"n":"x","legacy":{"flag":true},"extra":1}"#.utf8))
        let tree = try FiveSteps.migrated(stored)
        #expect(tree["name"] == "x")
        #expect(tree["count"] == 10)
        #expect(tree["flag"] == true)
        #expect(tree["legacy"] == nil)
        #expect(tree["extra"] == 1)
        #expect(tree["model_version"] == 6)
        let current = try JSONFormat().tree(from: Data(#"{"model_version":6,"name":"y"}"#.utf8))
        #expect(try FiveSteps.migrated(current) == current)
    }

    @Test("migrated(_:) reports what the decoder would: newer data, a missing version, a non-object")
    func migratedTreeErrors() throws {
        #expect {
            try Plain.migrated(["model_version": 9, "name": "a"])
        } throws: { error in
            guard case .newerVersion(found: 9, current: 1, _)? = error as? SerializationError else { return false }
            return true
        }
        #expect {
            try StringVersioned.migrated(["new": 1])
        } throws: { error in
            guard case .missingVersion("schema", _)? = error as? SerializationError else { return false }
            return true
        }
        #expect {
            try Plain.migrated([1, 2])
        } throws: { error in
            guard case .typeMismatch? = error as? SerializationError else { return false }
            return true
        }
    }
}
