import Foundation
import Testing

@testable import Serialization

/// `Serializer(.json).read` decodes plain models in one pass straight from the bytes; it must
/// read exactly what the two phases (bytes → tree → model) read, and hand everything else to them.
@Suite("The one-pass JSON reader agrees with the two-phase reader")
struct JSONFastReaderTests {
    struct Plain: Codable, Equatable {
        enum Mood: String, Codable { case calm, busy }
        struct Inner: Codable, Equatable {
            var name: String
            var tags: [String]
        }
        var id: Int
        var title: String
        var score: Double
        var small: Int8
        var big: UInt64
        var ratio: Float
        var flag: Bool
        var missing: String?
        var present: Int?
        var inner: Inner
        var list: [Int]
        var nested: [[Double]]
        var map: [String: Int]
        var mood: Mood
        var uuid: UUID
        var link: URL
    }

    static let plain = Plain(
        id: -42, title: "Quote \" slash \\ tab \t line \n é 漢字 🙂 \u{0001}", score: 59.57142857142857, small: -8,
        big: 123_456_789, ratio: 0.1, flag: true, missing: nil, present: 7,
        inner: Plain.Inner(name: "inner", tags: ["a", "", "c"]), list: [1, -2, 3], nested: [[1.5, -0.0], [], [1e-7]],
        map: ["one": 1, "two": 2], mood: .busy, uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
        link: URL(string: "https://example.com/a?b=c")!)

    /// What the full reader makes of `text`: the value, or its error, as text (a double's text
    /// tells every value apart, `-0.0` from `0.0` too).
    func full<Value: Decodable>(
        _ type: Value.Type, _ text: String, _ serializer: Serializer = Serializer(.json)
    )
        -> String
    {
        do { return "\(try serializer.readThroughTree(type, from: Data(text.utf8)))" } catch {
            return "error: \(error)"
        }
    }

    /// What `Serializer.read` makes of `text` (the fast reader, else the full one), as text.
    func read<Value: Decodable>(
        _ type: Value.Type, _ text: String, _ serializer: Serializer = Serializer(.json)
    )
        -> String
    {
        do { return "\(try serializer.read(type, from: Data(text.utf8)))" } catch { return "error: \(error)" }
    }

    /// What the fast reader alone makes of `data` with the default format and options: nil when it
    /// leaves the document to the full reader.
    func fast<Value: Decodable>(_ type: Value.Type, _ data: Data) -> Value? {
        try? JSONFastReader.value(type, from: data, depthLimit: KeyValue.defaultMaximumDepth, userInfo: [:])
    }

    @Test("a plain model is read in one pass, equal to the two-phase reader's")
    func plainRecord() throws {
        let data = try Serializer(.json).data(Self.plain)
        let read = try #require(fast(Plain.self, data))
        #expect(read == Self.plain)
        #expect(read == (try Serializer(.json).readThroughTree(Plain.self, from: data)))
        #expect(read.nested[0][1].sign == .minus)
    }

    @Test("documents of one type read one after another, each whole")
    func manyDocuments() throws {
        let json = Serializer(.json)
        for index in 0..<50 {
            var record = Self.plain
            record.id = index
            record.list = Array(0..<index)
            #expect(fast(Plain.self, try json.data(record)) == record)
        }
    }

    @Test(
        "numbers read as the full reader reads them",
        arguments: [
            "0", "-0", "1", "-1", "17", "9007199254740993", "123456789012345678", "0.1", "-0.0", "1.5e3", "1E-5",
            "2.5e+22",
            "59.57142857142857", "0.30000000000000004", "1.7976931348623157e308", "5e-324",
            "123456789012345678901234567890",
            "1.00000000000000000000000000001", "4.9406564584124654e-324", "1e23", "8.98846567431158e307",
        ])
    func numbers(_ text: String) {
        #expect(full([Double].self, "[\(text)]") == read([Double].self, "[\(text)]"))
        #expect(full([Int].self, "[\(text)]") == read([Int].self, "[\(text)]"))
        #expect(
            full([Float].self, "[\(text)]") == read([Float].self, "[\(text)]"))
        #expect(
            full([UInt8].self, "[\(text)]") == read([UInt8].self, "[\(text)]"))
    }

    @Test("random doubles and strings read back exactly")
    func randomValues() throws {
        var generator = SplitMix(seed: 23)
        let alphabet = Array("aZ09 \"\\/\n\t\u{0}\u{1F}é漢🙂\u{7F}\u{FFFF}")
        var answered = 0
        for round in 0..<600 {
            let bits = generator.next()
            // Half any finite double (many have three-digit exponents: the full reader's), half
            // doubles of everyday size.
            var double = Double(bitPattern: bits)
            if round.isMultiple(of: 2) || !double.isFinite {
                double = Double(Int64(bitPattern: bits) >> 11) / Double(1 << (bits % 40))
            }
            let text = String(
                (0..<Int(bits % 12)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            let record = [Pair(number: double, text: text)]
            let data = try Serializer(.json).data(record)
            if let read = fast([Pair].self, data) {
                answered += 1
                #expect(read[0].number.bitPattern == double.bitPattern)
                #expect(read[0].text == text)
            }
            let stored = try Serializer(.json).read([Pair].self, from: data)
            #expect(stored[0].number.bitPattern == double.bitPattern)
            #expect(stored[0].text == text)
        }
        #expect(answered >= 300)
    }

    struct Pair: Codable, Equatable {
        var number: Double
        var text: String
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    struct Small: Codable, Equatable {
        var id: Int
        var text: String
    }

    @Test(
        "documents the fast reader does not vouch for go to the full reader, with the same outcome",
        arguments: [
            #"{"id":1,"text":"a","id":2}"#,  // a repeated key
            #"{"text":"a","id":1,"text":"b"}"#,  // a repeated key, keys out of order
            #"{"id":1,"text":"\ud83d\ude00"}"#,  // a surrogate pair escape
            #"{"id":1,"text":"\ud83d"}"#,  // a lone surrogate
            #"{"id":1,"text":"\x"}"#,  // an invalid escape
            "{\"id\":1,\"text\":\"\u{1}\"}",  // an unescaped control character
            #"{"id":1.0,"text":"a"}"#,  // an integral fraction for an Int
            #"{"id":1e2,"text":"a"}"#,  // an exponent for an Int
            #"{"id":99999999999999999999,"text":"a"}"#,  // beyond Int
            #"{"id":01,"text":"a"}"#,  // a leading zero
            #"{"id":1,"text":"a"} x"#,  // trailing text
            "\u{FEFF}{\"id\":1,\"text\":\"a\"}",  // a byte order mark
            #"{"id":1,"text":"a","é":2}"#,  // a non-ASCII key
            #"{"id":1,"te\u0078t":"a"}"#,  // an escaped key
            #"{"id":1}"#,  // a missing key
            #"{"id":null,"text":"a"}"#,  // null for a non-optional
            #"{"id":"1","text":"a"}"#,  // a string for an Int
            #"{"id":1,"text":"a",}"#,  // a trailing comma
            #"{"id":1,"text":"a"#,  // truncated
            #"[{"id":1,"text":"a"}]"#,  // an array for an object
            #" { "id" : 1 , "text" : "a" , "extra" : [ 1 , { "x" : null } ] } "#,  // whitespace, an unread value
            #"{"id":1,"text":"a","extra":{"k":1,"k":2}}"#,  // a repeated key in an unread object
            #"{"id":1,"text":"a","extra":1e400}"#,  // an unread number beyond Double
        ])
    func sameOutcome(_ text: String) {
        #expect(full(Small.self, text) == read(Small.self, text))
    }

    @Test("invalid UTF-8 is refused as the full reader refuses it")
    func invalidUTF8() {
        var bytes = Array(#"{"id":1,"text":"ab"}"#.utf8)
        bytes.insert(0xC3, at: 16)  // a lead byte without its continuation
        #expect(fast(Small.self, Data(bytes)) == nil)
        #expect(throws: (any Error).self) { try Serializer(.json).read(Small.self, from: Data(bytes)) }
    }

    @Test("nesting deeper than the fast reader goes is left to the full reader")
    func deepNesting() {
        let text = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(fast(Deep.self, Data(text.utf8)) == nil)
        #expect(full(Deep.self, text) == read(Deep.self, text))
    }

    indirect enum Deep: Codable, Equatable {
        case list([Deep])
        init(from decoder: any Decoder) throws { self = .list(try [Deep](from: decoder)) }
        func encode(to encoder: any Encoder) throws {
            if case .list(let items) = self { try items.encode(to: encoder) }
        }
    }

    /// A model that swallows decoding errors, taking a default instead.
    struct Forgiving: Decodable, Equatable {
        enum CodingKeys: String, CodingKey { case number }
        var number: Int
        init(number: Int) { self.number = number }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            number = (try? container.decode(Int.self, forKey: .number)) ?? -1
        }
    }

    @Test("a model that catches the fast reader giving up still gets the full reader's value")
    func caughtGiveUp() throws {
        // The full reader reads the integral fraction as 5; the fast reader gives up there.
        let data = Data(#"{"number":5.0}"#.utf8)
        #expect(fast(Forgiving.self, data) == nil)
        #expect(try Serializer(.json).read(Forgiving.self, from: data) == Forgiving(number: 5))
    }

    struct Dated: Codable, Equatable {
        var id: Int
        var when: Date
        var blob: Data
    }

    @Test("dates and data are left to the full reader, which reads them")
    func datesAndData() throws {
        let record = Dated(id: 1, when: Date(timeIntervalSince1970: 1_000_000), blob: Data([1, 2, 3]))
        let data = try Serializer(.json).data(record)
        #expect(fast(Dated.self, data) == nil)
        #expect(try Serializer(.json).read(Dated.self, from: data) == record)
        // The type is remembered: the next reader does not try.
        #expect(fast(Dated.self, data) == nil)
    }

    struct Migrated: Codable, Equatable, Versioned {
        static let version = 2
        static let migrations = [Migration(from: 1) { try $0.rename("title", to: "name") }]
        var name: String
    }

    @Test("versioned records are migrated by the full reader")
    func versioned() throws {
        let old = #"{"model_version":1,"title":"old"}"#
        #expect(fast(Migrated.self, Data(old.utf8)) == nil)
        #expect(try Serializer(.json).read(Migrated.self, from: Data(old.utf8)) == Migrated(name: "old"))
    }

    @Test("a format's own nesting limit holds on the fast path too")
    func formatDepthLimit() throws {
        let shallow = Serializer(JSONFormat(maximumDepth: 3))
        let text = "[[[[1]]]]"
        #expect(read([[[[Int]]]].self, text, shallow).hasPrefix("error:"))
        #expect(read([[[[Int]]]].self, text, shallow) == full([[[[Int]]]].self, text, shallow))
        #expect(read([[[Int]]].self, "[[[1]]]", shallow) == "[[[1]]]")
    }

    struct SnakeCased: Codable, Equatable {
        var firstName: String
        var itemCount: Int
    }

    @Test("a key strategy is applied: such documents take the two-phase path")
    func keyStrategy() throws {
        let snake = Serializer(.json, options: CodingOptions(keys: .snakeCase))
        let text = #"{"first_name":"Ada","item_count":2}"#
        #expect(try snake.read(SnakeCased.self, from: Data(text.utf8)) == SnakeCased(firstName: "Ada", itemCount: 2))
        #expect(read(SnakeCased.self, #"{"firstName":"Ada","itemCount":2}"#, snake).hasPrefix("error:"))
    }

    static let unitKey = CodingUserInfoKey(rawValue: "unit")!

    /// A model that reads what it was given in `userInfo`.
    struct Measured: Decodable, Equatable {
        var value: Int
        var unit: String
        init(value: Int, unit: String) {
            self.value = value
            self.unit = unit
        }
        init(from decoder: any Decoder) throws {
            enum Keys: String, CodingKey { case value }
            value = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .value)
            unit = decoder.userInfo[JSONFastReaderTests.unitKey] as? String ?? "none"
        }
    }

    @Test("a model sees the serializer's userInfo on the fast path as on the two-phase one")
    func userInfo() throws {
        let metres = Serializer(.json, options: CodingOptions(userInfo: [Self.unitKey: "m"]))
        let data = Data(#"{"value":3}"#.utf8)
        #expect(try metres.read(Measured.self, from: data) == Measured(value: 3, unit: "m"))
        #expect(try metres.readThroughTree(Measured.self, from: data) == Measured(value: 3, unit: "m"))
        #expect(try Serializer(.json).read(Measured.self, from: data) == Measured(value: 3, unit: "none"))
    }

    @Test(
        "errors are the two-phase reader's, with the file's location",
        arguments: [
            #"{"id":1}"#, #"{"id":"x","text":"a"}"#, #"{"id":1,"text":"a""#, #"{"id":1,"text":"a","id":2}"#,
        ])
    func errors(_ text: String) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fast-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let error = try #require(throws: SerializationError.self) { try Serializer(.json).read(Small.self, from: url) }
        #expect("\(error)".contains(url.lastPathComponent))
        #expect(read(Small.self, text) == full(Small.self, text))
    }
}
