import Foundation
import Testing

@testable import Serialization

// Review of the finished package: each test pins one behaviour a demanding user relies on.

/// The error `body` throws, as a ``SerializationError``.
/// Shared by the review-finding suites in this folder.
func serializationError(_ body: () throws -> Void) -> SerializationError? {
    do {
        try body()
        return nil
    } catch {
        return error as? SerializationError
    }
}

private struct Wrapped<Value: Codable & Equatable>: Codable, Equatable {
    var value: Value
}

private struct OrderedKeys: Codable {
    var zebra = 1
    var apple = 2
    var mango = 3
}

private enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case labelled(String, Int)
    case empty
}

private struct Identifiers: Codable, Equatable {
    var userID: String
    var URLString: String
    var imageURLs: [String]
}

private struct Settings: Codable, Equatable {
    var displayName: String
    var preferences: [String: Int]
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

private struct Record: Codable, Equatable {
    var text: String
    var number: Int
    var real: Double
    var flag: Bool
    var when: Date
    var blob: Data
    var list: [Int]
    var nested: [String: String]
}

@Suite("Review findings: JSON edge cases")
struct ReviewJSONTests {
    let json = Serializer(.json)

    @Test("negative zero keeps its sign when read as a Double")
    func negativeZero() throws {
        let value = try json.read(Double.self, from: "-0")
        #expect(value == 0 && value.sign == .minus)
        #expect(try json.read(Int.self, from: "-0") == 0)
        #expect(try json.read(Double.self, from: "-0.0").sign == .minus)
    }

    @Test("numbers too large for a Double are out of range; too small ones underflow to zero")
    func hugeAndTinyNumbers() throws {
        for text in ["1e400", "-1E400", "[1e309]"] {
            let error = serializationError { _ = try JSONFormat().tree(from: Data(text.utf8)) }
            guard case .numberOutOfRange? = error else {
                Testing.Issue.record("\(text): \(String(describing: error))")
                continue
            }
        }
        #expect(try json.read(Double.self, from: "1E-400") == 0)
    }

    @Test("integers beyond Int64 read as Double, and are an error (never wrapped) for Int")
    func integersBeyondInt64() throws {
        #expect(try json.read(Double.self, from: "9223372036854775808") == 9_223_372_036_854_775_808.0)
        #expect(try json.read(Double.self, from: "100000000000000000000") == 1e20)
        #expect(try json.read(Int.self, from: "9223372036854775807") == .max)
        #expect(try json.read(Int.self, from: "-9223372036854775808") == .min)
        for text in ["9223372036854775808", "-9223372036854775809", "-99999999999999999999"] {
            let error = serializationError { _ = try json.read(Int.self, from: text) }
            guard case .numberOutOfRange? = error else {
                Testing.Issue.record("\(text) read as Int gave \(String(describing: error))")
                continue
            }
        }
        let error = serializationError { _ = try json.read([String: Int].self, from: #"{"n": -9223372036854775809}"#) }
        #expect(error?.location.keyPath.description == "n")
    }

    @Test(
        "malformed numbers are errors",
        arguments: ["01", "-", "-a", "1.", ".5", "+1", "--1", "1e", "1e+", "0x10", "1 2", "[1]x", "NaN", "Infinity"])
    func malformedNumbers(text: String) {
        let error = serializationError { _ = try JSONFormat().tree(from: Data(text.utf8)) }
        guard case .malformed? = error else {
            Testing.Issue.record("\(text): \(String(describing: error))")
            return
        }
    }

    @Test("escapes: NUL, solidus, surrogate pairs; lone surrogates are errors")
    func escapes() throws {
        #expect(try json.read(String.self, from: #""a\u0000b""#) == "a\u{0}b")
        #expect(try json.read(String.self, from: #""\/\\\"""#) == "/\\\"")
        #expect(try json.read(String.self, from: #""\uD83D\uDE00""#) == "😀")
        #expect(try json.read(String.self, from: #""\u00e9""#) == "é")
        for text in [#""\uD800""#, #""\uDC00""#, #""\uD800\u0041""#, #""\uD800x""#, #""\u12""#, #""\x""#] {
            let error = serializationError { _ = try json.read(String.self, from: text) }
            guard case .malformed? = error else {
                Testing.Issue.record("\(text): \(String(describing: error))")
                continue
            }
        }
        // NUL and other control characters survive a round trip.
        let text = "nul\u{0} bell\u{7} del\u{7F} ls\u{2028}"
        #expect(try json.read(String.self, from: try json.data(text)) == text)
    }

    @Test("a byte order mark is skipped; whitespace is only the four JSON characters")
    func bomAndWhitespace() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data(" \t\r\n[1]\n".utf8))
        #expect(try json.read([Int].self, from: data) == [1])
        #expect(Serializer.format(of: data) == .json)
        for text in ["\u{0C}[1]", "[1]\u{0B}", "\u{A0}[1]", "[1]\u{FEFF}"] {
            let error = serializationError { _ = try JSONFormat().tree(from: Data(text.utf8)) }
            #expect(error != nil, "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test("empty and blank input are errors")
    func emptyInput() {
        for text in ["", "   ", "\n"] {
            let error = serializationError { _ = try json.read([Int].self, from: text) }
            guard case .malformed? = error else {
                Testing.Issue.record("\(text.debugDescription): \(String(describing: error))")
                continue
            }
        }
    }

    @Test("nesting exactly at the limit is read; one more is tooDeep")
    func depthLimit() throws {
        let format = JSONFormat(maximumDepth: 512)
        let atLimit = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        let tree = try format.tree(from: Data(atLimit.utf8))
        #expect(try format.data(from: tree) == Data(atLimit.utf8))
        let over = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = serializationError { _ = try format.tree(from: Data(over.utf8)) }
        guard case .tooDeep(let limit, _)? = error else {
            Testing.Issue.record("\(String(describing: error))")
            return
        }
        #expect(limit == 512)
    }

    @Test("a duplicate key error names the key, its line and column")
    func duplicateKey() throws {
        let text = "{\n  \"outer\": {\n    \"a\": 1,\n    \"a\": 2\n  }\n}"
        let error = serializationError { _ = try JSONFormat().tree(from: Data(text.utf8)) }
        guard case .duplicateKey(let key, let location)? = error else {
            Testing.Issue.record("\(String(describing: error))")
            return
        }
        #expect(key == "a")
        #expect(location.line == 4)
        #expect(location.column == 5)
        #expect(location.keyPath.description == "outer.a")
        #expect(error?.message.contains("\"a\"") == true)
        #expect(error?.message.contains("line 4, column 5") == true)
    }

    @Test("a Float is written as its shortest decimal, as JSONEncoder does")
    func floatShortestDecimal() throws {
        let text = try json.string(Wrapped(value: Float(0.1)))
        #expect(text == #"{"value":0.1}"#)
        #expect(try json.read(Wrapped<Float>.self, from: text).value == 0.1)
        let floats: [Float] = [1.1, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -2.5, 16_777_216]
        #expect(try json.read([Float].self, from: try json.data(floats)) == floats)
        #expect(try json.string([Float(1.1)]) == "[1.1]")
    }

    @Test("a number too large for a Float is an error with its key path, not infinity")
    func floatOverflow() {
        let error = serializationError { _ = try json.read(Wrapped<Float>.self, from: #"{"value": 1e39}"#) }
        guard case .numberOutOfRange(_, let location)? = error else {
            Testing.Issue.record("\(String(describing: error))")
            return
        }
        #expect(location.keyPath.description == "value")
    }

    @Test("NaN and infinity are JSON errors naming the key path")
    func nonFinite() {
        for number in [Double.nan, .infinity, -.infinity] {
            let error = serializationError { _ = try json.data(Wrapped(value: [1, number])) }
            guard case .unsupportedValue(_, let location)? = error else {
                Testing.Issue.record("\(number): \(String(describing: error))")
                continue
            }
            #expect(location.keyPath.description == "value[1]")
            #expect(location.format == "JSON")
        }
        let error = serializationError { _ = try json.data(Wrapped(value: Float.nan)) }
        #expect(error?.location.keyPath.description == "value")
    }
}

@Suite("Review findings: Codable edge cases")
struct ReviewCodableTests {
    static let formats: [any DataFormat] = [JSONFormat(), PropertyListFormat(.xml), PropertyListFormat(.binary)]

    func roundTrip<T: Codable & Equatable>(
        _ value: T, _ format: any DataFormat, options: CodingOptions = .default
    )
        throws -> T
    {
        let serializer = Serializer(format: format, options: options)
        return try serializer.read(T.self, from: try serializer.data(value))
    }

    @Test("the output has sorted keys, stable across runs")
    func sortedKeys() throws {
        let json = Serializer(.json)
        #expect(try json.string(OrderedKeys()) == #"{"apple":2,"mango":3,"zebra":1}"#)
        #expect(try json.data(OrderedKeys()) == json.data(OrderedKeys()))
    }

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

    @Test("nested keyed and unkeyed containers round trip", arguments: formats)
    func nestedContainers(format: any DataFormat) throws {
        let value = Nested(x: 1, tags: ["a", "b"], point: [1.5, -2])
        #expect(try roundTrip(value, format) == value)
        let tree = try KeyValue(encoding: value)
        #expect(tree[path: "extra.point[1]"] == .double(-2))
    }

    @Test("enums with associated values round trip", arguments: formats)
    func enumsWithAssociatedValues(format: any DataFormat) throws {
        let shapes: [Shape] = [
            .circle(radius: 2), .rectangle(width: 1, height: 2), .labelled("x", 3), .empty,
        ]
        #expect(try roundTrip(shapes, format) == shapes)
    }

    @Test("dictionaries with Int, UUID and enum keys round trip", arguments: formats)
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

    @Test("Date, Data, URL, UUID and Decimal round trip in arrays and as dictionary values", arguments: formats)
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

    @Test("snake_case round trips acronyms", arguments: formats)
    func snakeCaseAcronyms(format: any DataFormat) throws {
        let options = CodingOptions(keys: .snakeCase)
        let value = Identifiers(userID: "u1", URLString: "https://x", imageURLs: ["a"])
        let tree = try KeyValueEncoder(options: options).encode(value)
        // A leading acronym stays one word (JSONEncoder writes "u_rl_string"); a plural acronym
        // splits before its last capital, as JSONEncoder splits it.
        #expect(tree.objectValue?.keys.sorted() == ["image_ur_ls", "url_string", "user_id"])
        #expect(try roundTrip(value, format, options: options) == value)
    }

    @Test("snake_case leaves dictionary keys (data, not property names) untouched", arguments: formats)
    func snakeCaseDictionaryKeys(format: any DataFormat) throws {
        let options = CodingOptions(keys: .snakeCase)
        let value = Settings(displayName: "a", preferences: ["fontSize": 12, "snake_key": 1, "HTTPPort": 80])
        #expect(try roundTrip(value, format, options: options) == value)
        let tree = try KeyValueEncoder(options: options).encode(value)
        #expect(tree[path: "preferences.fontSize"] == .int(12))
        #expect(tree["display_name"] == .string("a"))
    }

    @Test("class inheritance with a super encoder round trips", arguments: formats)
    func classInheritance(format: any DataFormat) throws {
        let dog = Dog(name: "Rex", breed: "collie")
        let serializer = Serializer(format: format)
        let back = try serializer.read(Dog.self, from: try serializer.data(dog))
        #expect(back == dog)
        let tree = try KeyValue(encoding: dog)
        #expect(tree[path: "super.name"] == .string("Rex"))
    }

    @Test("Foundation's JSONEncoder output decodes through our JSON reader")
    func foundationJSONInterop() throws {
        let record = Record(
            text: "a\"b\\c</script>\u{1}", number: -7, real: 0.1, flag: true, when: Date(timeIntervalSince1970: 0),
            blob: Data([1, 2]), list: [1, 2], nested: ["k": "v"])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .base64
        let data = try encoder.encode(record)
        #expect(try Serializer(.json).read(Record.self, from: data) == record)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(Record.self, from: try Serializer(.json).data(record)) == record)
    }

    @Test("fractional-second dates round trip exactly through JSON")
    func fractionalDates() throws {
        let json = Serializer(.json)
        var dates: [Date] = []
        for milliseconds in stride(from: 1, to: 1000, by: 7) {
            dates.append(Date(timeIntervalSince1970: 1_700_000_000 + Double(milliseconds) / 1000))
            dates.append(Date(timeIntervalSince1970: -1_000_000 - Double(milliseconds) / 1000))
        }
        let back = try json.read([Date].self, from: try json.data(dates))
        for (date, read) in zip(dates, back) where date != read {
            Testing.Issue.record("\(date.timeIntervalSince1970) read back as \(read.timeIntervalSince1970)")
        }
    }

    @Test("a decimal number from another writer reads as the exact Decimal")
    func decimalFromNumber() throws {
        let json = Serializer(.json)
        #expect(try json.read(Wrapped<Decimal>.self, from: #"{"value": 0.1}"#).value == Decimal(string: "0.1"))
        #expect(try json.read(Wrapped<Decimal>.self, from: #"{"value": 1e-5}"#).value == Decimal(string: "0.00001"))
        #expect(
            try json.read([Decimal].self, from: "[12.345, -7, 3]") == [
                Decimal(string: "12.345")!, Decimal(-7), Decimal(3),
            ])
    }

    @Test("a shared Serializer is safe across concurrent tasks")
    func concurrentUse() async throws {
        let serializer = Serializer(.json)
        let binary = Serializer(.binaryPropertyList)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for iteration in 0..<100 {
                        let record = Record(
                            text: "t\(task)-\(iteration)", number: iteration, real: Double(task) / 3, flag: true,
                            when: Date(timeIntervalSince1970: Double(iteration)), blob: Data([UInt8(task)]),
                            list: [task, iteration], nested: ["k": "\(task)"])
                        let back = try serializer.read(Record.self, from: try serializer.data(record))
                        let backBinary = try binary.read(Record.self, from: try binary.data(record))
                        guard back == record, backBinary == record else { return false }
                    }
                    return true
                }
            }
            var all: [Bool] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16 && results.allSatisfy { $0 })
    }
}

@Suite("Review findings: property lists")
struct ReviewPropertyListTests {
    fileprivate let record = Record(
        text: "<tag attr=\"x\">&amp; 'q' ]]> é 😀 \t", number: Int.min, real: -0.25, flag: false,
        when: Date(timeIntervalSince1970: 1_234_567_890), blob: Data((0..<200).map { UInt8($0) }),
        list: [0, 255, 65_536, -1],
        nested: ["&": "<", "": "empty key"])

    @Test(
        "our property lists read with Foundation's PropertyListDecoder",
        arguments: [PropertyListFormat.Encoding.xml, .binary])
    func foundationReadsOurs(encoding: PropertyListFormat.Encoding) throws {
        let data = try Serializer(PropertyListFormat(encoding)).data(record)
        #expect(try PropertyListDecoder().decode(Record.self, from: data) == record)
    }

    @Test(
        "Foundation's property lists read with our reader",
        arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func oursReadsFoundation(format: PropertyListSerialization.PropertyListFormat) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        let data = try encoder.encode(record)
        let ours = Serializer(PropertyListFormat(format == .xml ? .xml : .binary))
        #expect(try ours.read(Record.self, from: data) == record)
        #expect(Serializer.format(of: data) == (format == .xml ? .xmlPropertyList : .binaryPropertyList))
    }

    @Test("large binary property lists change reference and offset sizes", arguments: [300, 70_000])
    func largeArrays(count: Int) throws {
        let strings = (0..<count).map { "s\($0)" }
        let binary = Serializer(.binaryPropertyList)
        let ours = try binary.data(strings)
        #expect(ours.starts(with: Array("bplist00".utf8)))
        #expect(try PropertyListDecoder().decode([String].self, from: ours) == strings)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        #expect(try binary.read([String].self, from: try encoder.encode(strings)) == strings)
        let ints = (0..<count).map { $0 * 37 - 1000 }
        #expect(try binary.read([Int].self, from: try binary.data(ints)) == ints)
        #expect(try PropertyListDecoder().decode([Int].self, from: try binary.data(ints)) == ints)
    }

    @Test("dates keep sub-second precision in binary property lists")
    func binaryDatePrecision() throws {
        let date = Date(timeIntervalSinceReferenceDate: 123_456.789_012)
        let binary = Serializer(.binaryPropertyList)
        #expect(try binary.read([Date].self, from: try binary.data([date])) == [date])
    }
}
