import Foundation
import Testing

@testable import Serialization

/// A model that reads every key of its migrated object through `allKeys`, `contains`,
/// `decodeNil` and `decode`: what a keyed container reading through a ``MigrationView`` must
/// answer exactly as it would for the rewritten object.
struct EveryKey: Decodable, Versioned {
    static let version = 4
    static let migrations = [
        Migration(from: 1, to: 2, edits: [.rename("a", to: "b"), .fill("c", .int(0)), .integerToDouble("d")]),
        Migration(from: 2, to: 3, edits: []),
        Migration(from: 3, to: 4, edits: [.wrapInArray("e"), .remove("f"), .rename("b", to: "g")]),
    ]
    var entries: [String: KeyValue] = [:]
    var order: [String] = []
    var present: [String: Bool] = [:]
    var null: [String: Bool] = [:]

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for key in container.allKeys {
            order.append(key.stringValue)
            entries[key.stringValue] = try container.decode(KeyValue.self, forKey: key)
        }
        for name in ["a", "b", "c", "d", "e", "f", "g", "model_version", "zz"] {
            let key = Key(stringValue: name)
            present[name] = container.contains(key)
            if container.contains(key) { null[name] = try container.decodeNil(forKey: key) }
        }
    }
}

/// A model read whole through a single-value container: it sees the rewritten object.
struct WholeTree: Decodable, Versioned {
    static let version = 2
    static let migrations = [Migration(from: 1, to: 2, edits: [.rename("old", to: "new")])]
    var tree: KeyValue
    init(from decoder: any Decoder) throws { tree = try decoder.singleValueContainer().decode(KeyValue.self) }
}

/// A model whose steps change nothing but which reads its own version key.
struct ReadsItsVersion: Codable, Versioned {
    static let version = 3
    static let migrations = [Migration(from: 1, to: 2, edits: []), Migration(from: 2, to: 3, edits: [])]
    var name: String
    var storedVersion: Int?

    enum CodingKeys: String, CodingKey {
        case name
        case storedVersion = "model_version"
    }
}

@Suite("Decoding through a migration view")
struct MigrationViewTests {
    let keys = ["a", "b", "c", "d", "e", "f", "g", "model_version"]

    /// A small random generator (SplitMix64) so that case *n* is the same on every run.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    func value(_ random: inout Random) -> KeyValue {
        switch random.next(7) {
        case 0: .null
        case 1: .int(random.next(5))
        case 2: .double(Double(random.next(5)) + 0.5)
        case 3: .string(["x", "y", "z"][random.next(3)])
        case 4: .bool(random.next(2) == 0)
        case 5: .array((0..<random.next(3)).map { _ in .int(random.next(3)) })
        default: .object(["n": .int(random.next(3))])
        }
    }

    func edit(_ random: inout Random) -> Migration.Edit {
        let key = keys[random.next(keys.count)]
        switch random.next(6) {
        case 0: return .rename(key, to: keys[random.next(keys.count)])
        case 1: return .fill(key, value(&random))
        case 2: return .remove(key)
        case 3: return .integerToDouble(key)
        case 4: return .wrapInArray(key)
        default: return .replaceValues(key, [.int(1): .string("one"), .string("x"): .int(9)])
        }
    }

    @Test("a view answers, key by key, what applying the edits leaves (2,000 random objects and chains)")
    func viewAgreesWithEdits() throws {
        var random = Random(state: 32)
        for _ in 0..<2000 {
            var object = KeyValueObject()
            for key in keys where random.next(3) != 0 { object[key] = value(&random) }
            let edits = (0..<random.next(7)).map { _ in edit(&random) }
            let stamp: (key: String, value: KeyValue)? = random.next(2) == 0 ? ("model_version", .int(9)) : nil
            let view = try #require(MigrationView(edits: edits, stamp: stamp))
            var rewritten = object
            try Migration.Edit.apply(edits, to: &rewritten)
            if let stamp { rewritten[stamp.key] = stamp.value }
            for key in keys + ["other"] {
                #expect(view.value(key, in: object) == rewritten[key], "\(key) after \(edits) on \(object)")
            }
            #expect(view.materialized(object).keys == rewritten.keys)
            #expect(view.materialized(object) == rewritten)
        }
    }

    @Test("a run edit has no view: its step goes through the migrator")
    func runHasNoView() {
        #expect(MigrationView(edits: [.rename("a", to: "b"), .run { _ in }], stamp: nil) == nil)
    }

    @Test("decoding through the view gives what decoding the migrated tree gives: keys, order, presence, null")
    func decodeAgreesWithMigratedTree() throws {
        let json = Serializer(.json)
        let stored = #"[{"a":1,"b":"lost","d":2,"e":"one","f":null},{"model_version":1,"c":null,"e":null},{"b":3}]"#
        let tree = try json.tree(from: Data(stored.utf8))
        let viaView = try json.read([EveryKey].self, from: stored)
        // The reference: the whole tree migrated first (a copy, rewritten), then decoded plainly.
        guard case .array(let elements) = tree else { throw SerializationError.malformed("not an array", .init()) }
        for (index, element) in elements.enumerated() {
            var migrated = try EveryKey.migrated(element)
            if element["model_version"] == nil { migrated["model_version"] = .int(EveryKey.version) }
            guard case .object(let object) = migrated else { continue }
            #expect(viaView[index].order == object.keys)
            let expected = Dictionary(uniqueKeysWithValues: object.entries.map { ($0.key, $0.value) })
            #expect(viaView[index].entries == expected)
            for name in ["a", "b", "c", "d", "e", "f", "g", "model_version", "zz"] {
                #expect(viaView[index].present[name] == (object[name] != nil), "\(name) in \(index)")
                if let value = object[name] { #expect(viaView[index].null[name] == value.isNull) }
            }
        }
        #expect(viaView[0].entries["g"] == .int(1) && viaView[0].entries["d"] == .double(2))
        #expect(viaView[1].entries["c"] == .int(0) && viaView[1].entries["e"] == .array([]))
        #expect(viaView[2].entries["g"] == .int(3) && viaView[2].entries["b"] == nil)
    }

    @Test("a model read whole sees the rewritten object, stamped")
    func singleValueSeesRewrittenObject() throws {
        let whole = try Serializer(.json).read(WholeTree.self, from: #"{"old":1,"keep":true}"#)
        #expect(whole.tree == ["new": 1, "keep": true, "model_version": 2])
    }

    @Test("steps that change nothing: a stored version reads as the current one, a missing one stays missing")
    func unchangedChainStamp() throws {
        let json = Serializer(.json)
        let values = try json.read([ReadsItsVersion].self, from: #"[{"name":"a","model_version":1},{"name":"b"}]"#)
        #expect(values[0].storedVersion == 3)
        #expect(values[1].storedVersion == nil)
    }

    @Test("errors read through a view name the migrated key: a missing key, a wrong type")
    func errorsThroughView() throws {
        let json = Serializer(.json)
        #expect {
            let stored = #"[{"identifier":1,"title":"a","score":1}, {"title":"b","score":1}]"#
            _ = try json.read([EditedSteps].self, from: stored)
        } throws: { error in
            guard case .keyNotFound(let key, let location) = error as? SerializationError else { return false }
            return key == "id" && location.keyPath.description == "[1].id"
        }
        #expect {
            _ = try json.read([EditedSteps].self, from: #"[{"identifier":"seven","title":"a","score":1}]"#)
        } throws: { error in
            guard case .typeMismatch(_, _, let location) = error as? SerializationError else { return false }
            return location.keyPath.description == "[0].id"
        }
    }
}
