import Foundation
import Testing

@testable import Serialization

/// A model whose steps are edits, as ModelGen generates them.
struct EditedSteps: Codable, Versioned, Equatable {
    static let version = 6
    static let migrations = [
        Migration(from: 1, to: 2, edits: [.rename("identifier", to: "id")]),
        Migration(from: 2, to: 3, edits: [.rename("title", to: "name"), .integerToDouble("score")]),
        Migration(from: 3, to: 4, edits: [.wrapInArray("tags"), .fill("flagged", .bool(false))]),
        Migration(from: 4, to: 5, edits: [.fill("note", .string("migrated"))]),
        Migration(from: 5, to: 6, edits: [.remove("legacy")]),
    ]
    var id: Int
    var name: String
    var score: Double
    var tags: [String]
    var flagged: Bool
    var note: String
}

/// A model whose second step runs a hook that refuses a value.
struct HookedSteps: Codable, Versioned, Equatable {
    static let version = 3
    static let migrations = [
        Migration(from: 1, to: 2, edits: [.rename("n", to: "name")]),
        Migration(
            from: 2, to: 3,
            edits: [
                .run { tree in
                    guard tree["name"]?.stringValue != "bad" else {
                        throw SerializationError.keyNotFound("name", SerializationError.Location(keyPath: "name"))
                    }
                    tree["checked"] = .bool(true)
                }
            ]),
    ]
    var name: String
    var checked: Bool
}

@Suite("Migration edits")
struct MigrationEditTests {
    let json = Serializer(.json)

    @Test("a five-step chain of edits brings version 1 data to the current version")
    func chain() throws {
        let v1 =
            #"[{"identifier":7,"title":"a","score":3,"tags":"x","legacy":1},{"identifier":8,"title":"b","score":1.5}]"#
        let values = try json.read([EditedSteps].self, from: v1)
        #expect(
            values == [
                EditedSteps(id: 7, name: "a", score: 3, tags: ["x"], flagged: false, note: "migrated"),
                EditedSteps(id: 8, name: "b", score: 1.5, tags: [], flagged: false, note: "migrated"),
            ])
    }

    @Test("fill keeps a stored value and replaces null; a rename of an absent key does nothing")
    func fillAndAbsentRename() throws {
        let v3 = #"{"model_version":3,"id":1,"name":"n","score":2,"tags":["a","b"],"flagged":true,"note":null}"#
        #expect(
            try json.read(EditedSteps.self, from: v3)
                == EditedSteps(id: 1, name: "n", score: 2, tags: ["a", "b"], flagged: true, note: "migrated"))
    }

    @Test("applying the edits through body gives the tree the decoder's path gives")
    func bodyMatchesDecoder() throws {
        let stored: KeyValue = ["identifier": 7, "title": "a", "score": 3, "tags": "x", "legacy": 1]
        var byBody = stored
        for step in EditedSteps.migrations { try step.body(&byBody) }
        var migrated = try EditedSteps.migrated(stored)
        migrated["model_version"] = nil
        #expect(byBody == migrated)
        #expect(byBody["score"] == .double(3) && byBody["legacy"] == nil)
    }

    @Test("a failing hook edit names the step and the key, and a newer version is still refused")
    func failures() throws {
        #expect {
            try json.read([HookedSteps].self, from: #"[{"n":"ok"},{"n":"bad"}]"#)
        } throws: { error in
            guard let error = error as? SerializationError, case .migrationFailed(let step, _, let location) = error
            else { return false }
            return step == "2 → 3 of HookedSteps" && location.keyPath.description == "[1].name"
        }
        #expect {
            try json.read(EditedSteps.self, from: #"{"model_version":7,"id":1}"#)
        } throws: { error in
            guard case .newerVersion(let found, let current, _)? = error as? SerializationError else { return false }
            return found == 7 && current == 6
        }
        #expect(try json.read([HookedSteps].self, from: #"[{"n":"ok"}]"#) == [HookedSteps(name: "ok", checked: true)])
    }

    @Test("replaceValues maps a stored value, or each element of an array, and leaves others alone")
    func replaceValues() throws {
        let map: [KeyValue: KeyValue] = [.string("happy"): .string("joyful"), .int(1): .int(10)]
        var tree: KeyValue = ["one": "happy", "many": ["happy", "sad", 1], "other": "sad", "none": nil]
        try Migration(
            from: 1, to: 2,
            edits: [
                .replaceValues("one", map), .replaceValues("many", map), .replaceValues("other", map),
                .replaceValues("none", map), .replaceValues("absent", map),
            ]
        ).body(&tree)
        #expect(tree == ["one": "joyful", "many": ["joyful", "sad", 10], "other": "sad", "none": nil])
    }

    @Test("a step of edits on a value that is not an object is a type mismatch, not a crash")
    func notAnObject() throws {
        var tree: KeyValue = .array([1, 2])
        #expect(throws: SerializationError.self) { try EditedSteps.migrations[0].body(&tree) }
        #expect(throws: SerializationError.self) { try json.read(EditedSteps.self, from: "[1,2]") }
    }
}
