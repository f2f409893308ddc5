import Foundation
import Testing

@testable import Serialization

@Suite("KeyValue trees")
struct KeyValueTests {
    @Test("subscripts read and write keys and indices")
    func subscripts() {
        var tree: KeyValue = ["a": [1, 2, ["b": "c"]]]
        #expect(tree["a"]?[2]?["b"] == "c")
        tree["d"] = true
        tree["a"]?[0] = 10
        #expect(tree["d"] == .bool(true))
        #expect(tree["a"]?[0] == 10)
        tree["d"] = nil
        #expect(tree["d"] == nil)
        #expect(tree[5] == nil)
    }

    @Test("paths address nested values and create objects when set")
    func paths() {
        var tree: KeyValue = ["a": ["b": [0, 1, ["c": "deep"]]]]
        #expect(tree[path: "a.b[2].c"] == "deep")
        #expect(tree[path: "a.x"] == nil)
        tree[path: "x.y.z"] = 1
        #expect(tree["x"]?["y"]?["z"] == 1)
        tree[path: "a.b[0]"] = nil
        #expect(tree[path: "a.b"]?.arrayValue?.count == 2)
        #expect(KeyValuePath("a.b[2].c").description == "a.b[2].c")
        #expect(KeyValuePath(#"file\.json"#).components == [.key("file.json")])
    }

    @Test("editing helpers rename, move, remove and map")
    func editing() throws {
        var tree: KeyValue = ["name": "Acme", "owner": ["first": "Ada"], "tags": ["a", "b"]]
        try tree.rename("name", to: "title")
        #expect(tree.objectValue?.keys == ["title", "owner", "tags"])
        try tree.rename("owner.first", to: "given")
        #expect(tree[path: "owner.given"] == "Ada")
        try tree.move("owner.given", to: "contact.name")
        #expect(tree[path: "contact.name"] == "Ada")
        #expect(tree.remove("tags[0]") == "a")
        tree.mapValues(at: "tags") { .string(($0.stringValue ?? "").uppercased()) }
        #expect(tree["tags"] == ["B"])
        tree.update("title") { .string(($0.stringValue ?? "") + " Inc.") }
        #expect(tree["title"] == "Acme Inc.")
        #expect(throws: SerializationError.self) { try tree.rename("missing", to: "x") }
        #expect(throws: SerializationError.self) { try tree.move("missing", to: "x") }
    }

    @Test("objects keep insertion order but compare and hash regardless of it")
    func order() {
        let a: KeyValue = ["x": 1, "y": 2]
        let b: KeyValue = ["y": 2, "x": 1]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.objectValue?.keys == ["x", "y"])
        #expect(a != ["x": 1, "y": 3])
        #expect(Set([a, b]).count == 1)
    }

    @Test("large objects stay consistent through edits")
    func largeObjects() {
        var object = KeyValueObject()
        for index in 0..<100 { object["k\(index)"] = .int(index) }
        object["k5"] = nil
        object.renameKey("k6", to: "six")
        #expect(object["k5"] == nil)
        #expect(object["six"] == 6)
        #expect(object["k99"] == 99)
        #expect(object.count == 99)
    }

    @Test("KeyValue is itself Codable, through every format", arguments: Formats.all)
    func codable(format: any DataFormat) throws {
        let tree: KeyValue = ["a": [1, 2.5, "x", true, nil]]
        #expect(try Serializer(format: format).read(KeyValue.self, from: Serializer(format: format).data(tree)) == tree)
        #expect(try JSONDecoder().decode(KeyValue.self, from: JSONEncoder().encode(tree)) == tree)
    }

    @Test("encoding and decoding go through the tree and name the key path on errors")
    func keyPaths() throws {
        struct Line: Codable { var quantity: Int }
        struct Order: Codable { var lines: [Line] }
        let tree: KeyValue = ["lines": [["quantity": 1], ["quantity": "two"]]]
        #expect {
            try tree.decode(Order.self)
        } throws: { error in
            guard let error = error as? SerializationError, case .typeMismatch = error else { return false }
            return error.location.keyPath.description == "lines[1].quantity"
        }
        let missing: KeyValue = ["lines": [[:]]]
        #expect {
            try missing.decode(Order.self)
        } throws: { error in
            guard let error = error as? SerializationError, case .keyNotFound("quantity", _) = error else {
                return false
            }
            return error.message.contains("lines[0].quantity")
        }
    }
}
