import Foundation
import Testing

@testable import Serialization

/// Property lists have no null, and `PropertyListEncoder` writes nil as the string `"$null"`.
/// A user's string that happens to be `"$null"` is data all the same: our own round trip keeps it,
/// and plists written by Foundation keep reading their nils as nil.
@Suite("\"$null\" in property lists is data")
struct DollarNullTests {
    struct Note: Codable, Equatable {
        var title: String
        var subtitle: String?
        var tags: [String?]
        var byKey: [String: String]
    }

    static let plists: [PropertyListFormat] = [PropertyListFormat(.xml), PropertyListFormat(.binary)]

    @Test("a string \"$null\" reads back as that string, and null as null", arguments: plists)
    func treeRoundTrip(format: PropertyListFormat) throws {
        let tree: KeyValue = [
            "string": "$null", "null": nil, "both": ["$null", nil, "$null", nil], "near": "$$null",
            "$null": "key", "nested": ["$null": nil],
        ]
        let back = try format.tree(from: format.data(from: tree))
        #expect(back == tree)
        #expect(back["string"] == .string("$null"))
        #expect(back["null"] == .null)
    }

    @Test("a model holding \"$null\" saves and loads unchanged", arguments: plists)
    func modelRoundTrip(format: PropertyListFormat) throws {
        let note = Note(
            title: "$null", subtitle: "$null", tags: ["$null", nil, "x"], byKey: ["$null": "$null"])
        let serializer = Serializer(format)
        #expect(try serializer.read(Note.self, from: serializer.data(note)) == note)
        let empty = Note(title: "", subtitle: nil, tags: [nil], byKey: [:])
        #expect(try serializer.read(Note.self, from: serializer.data(empty)) == empty)
    }

    @Test(
        "nil written by PropertyListEncoder reads as nil",
        arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func foundationNil(format: PropertyListSerialization.PropertyListFormat) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        let note = Note(title: "t", subtitle: nil, tags: [nil, "a"], byKey: ["k": "v"])
        let data = try encoder.encode(note)
        let ours = Serializer(PropertyListFormat(format == .xml ? .xml : .binary))
        #expect(try ours.read(Note.self, from: data) == note)
    }

    @Test("a \"$null\" we write reads as \"$null\" in PropertyListDecoder", arguments: plists)
    func foundationReadsOurs(format: PropertyListFormat) throws {
        struct Plain: Codable, Equatable {
            var title: String
            var tags: [String]
        }
        let value = Plain(title: "$null", tags: ["$null", "b"])
        let data = try Serializer(format).data(value)
        #expect(try PropertyListDecoder().decode(Plain.self, from: data) == value)
    }

    /// The one ambiguity left: Foundation writes `Optional("$null")` and `nil` the same way, so
    /// its `"$null"` string reads as null (Foundation's own decoder reads it as nil too).
    @Test("a \"$null\" written by PropertyListEncoder reads as null (the documented ambiguity)")
    func documentedAmbiguity() throws {
        let data = try PropertyListEncoder().encode(["value": "$null"])
        #expect(try PropertyListFormat(.binary).tree(from: data) == ["value": nil])
        let optional = try PropertyListDecoder().decode([String: String?].self, from: data)
        #expect(optional["value"] == .some(nil))
    }
}
