import Foundation
import Testing

@testable import Serialization

// The shapes Codable types take, round tripped through every format.

private enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case labelled(String, Int)
    case empty
}

private class Animal: Codable {
    var name: String
    init(name: String) { self.name = name }
    private enum CodingKeys: String, CodingKey { case name }
}

private final class Dog: Animal, Equatable {
    var breed: String
    init(name: String, breed: String) {
        self.breed = breed
        super.init(name: name)
    }
    private enum CodingKeys: String, CodingKey { case breed }
    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        breed = try container.decode(String.self, forKey: .breed)
        try super.init(from: container.superDecoder())
    }
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(breed, forKey: .breed)
        try super.encode(to: container.superEncoder())
    }
    static func == (lhs: Dog, rhs: Dog) -> Bool { lhs.name == rhs.name && lhs.breed == rhs.breed }
}

private struct Nested: Codable, Equatable {
    var x: Int
    var tags: [String]
    var point: [Double]
    private enum CodingKeys: String, CodingKey { case x, extra }
    private enum ExtraKeys: String, CodingKey { case tags, point }
    init(x: Int, tags: [String], point: [Double]) {
        self.x = x
        self.tags = tags
        self.point = point
    }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        x = try container.decode(Int.self, forKey: .x)
        let extra = try container.nestedContainer(keyedBy: ExtraKeys.self, forKey: .extra)
        tags = try extra.decode([String].self, forKey: .tags)
        var point = try extra.nestedUnkeyedContainer(forKey: .point)
        var values: [Double] = []
        while !point.isAtEnd { values.append(try point.decode(Double.self)) }
        self.point = values
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(x, forKey: .x)
        var extra = container.nestedContainer(keyedBy: ExtraKeys.self, forKey: .extra)
        try extra.encode(tags, forKey: .tags)
        var point = extra.nestedUnkeyedContainer(forKey: .point)
        for value in self.point { try point.encode(value) }
    }
}

private struct Foundations: Codable, Equatable {
    var dates: [Date]
    var blobs: [Data]
    var links: [URL]
    var ids: [UUID]
    var amounts: [Decimal]
    var datesByName: [String: Date]
    var blobsByName: [String: Data]
    var linksByName: [String: URL]
    var idsByName: [String: UUID]
    var amountsByName: [String: Decimal]
}

private enum Color: String, Codable, CodingKeyRepresentable, Hashable { case red, green }

private struct Optionals: Codable, Equatable {
    var a: Int?
    var b: String?
    var c: [Int]?
}

@Suite("Codable shapes round trip in every format")
struct CodableShapeRoundTripTests {
    @Test("optionals: missing key and null both decode as nil; nil is omitted on encode")
    func optionals() throws {
        let json = Serializer(.json)
        #expect(try json.read(Optionals.self, from: "{}") == Optionals())
        #expect(try json.read(Optionals.self, from: #"{"a":null,"b":null,"c":null}"#) == Optionals())
        #expect(try json.string(Optionals()) == "{}")
        #expect(try json.read(Optionals.self, from: #"{"a":1,"c":[]}"#) == Optionals(a: 1, b: nil, c: []))
        let error = serializationError { _ = try json.read(Optionals.self, from: #"{"a":"x"}"#) }
        #expect(error?.location.keyPath.description == "a")
    }

    @Test("nested keyed and unkeyed containers round trip", arguments: everyFormat)
    func nestedContainers(format: any DataFormat) throws {
        let value = Nested(x: 1, tags: ["a", "b"], point: [1.5, -2])
        #expect(try roundTrip(value, format) == value)
        let tree = try KeyValue(encoding: value)
        #expect(tree[path: "extra.point[1]"] == .double(-2))
    }

    @Test("enums with associated values round trip", arguments: everyFormat)
    func enumsWithAssociatedValues(format: any DataFormat) throws {
        let shapes: [Shape] = [
            .circle(radius: 2), .rectangle(width: 1, height: 2), .labelled("x", 3), .empty,
        ]
        #expect(try roundTrip(shapes, format) == shapes)
    }

    @Test("dictionaries with Int, UUID and enum keys round trip", arguments: everyFormat)
    func nonStringKeys(format: any DataFormat) throws {
        let byInt = [1: "one", -2: "minus two", 300: "many"]
        #expect(try roundTrip(byInt, format) == byInt)
        let byID = [UUID(): 1, UUID(): 2]
        #expect(try roundTrip(byID, format) == byID)
        let byColor: [Color: Int] = [.red: 1, .green: 2]
        #expect(try roundTrip(byColor, format) == byColor)
        let byDouble: [Double: String] = [1.5: "a", 2: "b"]
        #expect(try roundTrip(byDouble, format) == byDouble)
    }

    @Test("Date, Data, URL, UUID and Decimal round trip in arrays and as dictionary values", arguments: everyFormat)
    func foundationTypes(format: any DataFormat) throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let value = Foundations(
            dates: [date, Date(timeIntervalSince1970: -86_400)], blobs: [Data(), Data([0, 255])],
            links: [URL(fileURLWithPath: "/tmp/a b"), URL(string: "https://example.com/?q=1#f")!],
            ids: [UUID()], amounts: [Decimal(string: "0.1")!, Decimal(string: "-12345678901234567890.5")!],
            datesByName: ["d": date], blobsByName: ["b": Data([1, 2, 3])],
            linksByName: ["l": URL(string: "mailto:a@b.c")!], idsByName: ["i": UUID()],
            amountsByName: ["a": Decimal(string: "3.14159")!])
        #expect(try roundTrip(value, format) == value)
    }

    @Test("class inheritance with a super encoder round trips", arguments: everyFormat)
    func classInheritance(format: any DataFormat) throws {
        let dog = Dog(name: "Rex", breed: "collie")
        let serializer = Serializer(format: format)
        let back = try serializer.read(Dog.self, from: try serializer.data(dog))
        #expect(back == dog)
        let tree = try KeyValue(encoding: dog)
        #expect(tree[path: "super.name"] == .string("Rex"))
    }
}
