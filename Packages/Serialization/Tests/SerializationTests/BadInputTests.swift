import Foundation
import Testing

@testable import Serialization

@Suite("Bad input gives typed errors")
struct BadInputTests {
    func error(_ format: any DataFormat, _ data: Data) -> SerializationError? {
        do {
            _ = try format.tree(from: data)
            return nil
        } catch {
            return error as? SerializationError
        }
    }

    @Test("truncated files in every format", arguments: Formats.all)
    func truncated(format: any DataFormat) throws {
        let whole = try format.data(from: ["key": ["a", 1, 2.5, .data(Data([1, 2, 3]))]])
        for length in [0, 1, whole.count / 3, whole.count / 2, whole.count - 2] {
            let error = error(format, whole.prefix(length))
            #expect(error != nil, "\(format.kind) cut at \(length) of \(whole.count)")
        }
    }

    @Test("wrong formats are rejected and detection says none")
    func wrongFormat() throws {
        let binary = try PropertyListFormat(.binary).data(from: [1])
        #expect(error(JSONFormat(), binary) != nil)
        #expect(error(PropertyListFormat(.xml), Data("{}".utf8)) != nil)
        #expect(error(PropertyListFormat(.binary), Data("{}".utf8)) != nil)
        #expect(Serializer.format(of: Data("hello".utf8)) == nil)
        #expect(Serializer.format(of: Data(" {\"a\":1}".utf8)) == .json)
        #expect(Serializer.format(of: try PropertyListFormat(.xml).data(from: [1])) == .xmlPropertyList)
        #expect(throws: SerializationError.self) {
            try Serializer.read([Int].self, detectingFormatOf: Data("hello".utf8))
        }
        #expect(try Serializer.read([Int].self, detectingFormatOf: binary) == [1])
    }

    @Test("JSON syntax errors carry line and column")
    func lineAndColumn() {
        let error = error(JSONFormat(), Data("{\n  \"a\": 1,\n  \"b\": tru\n}".utf8))
        #expect(error?.location.line == 3)
        #expect(error?.location.column == 8)
        #expect(error?.location.keyPath.description == "b")
        #expect(error?.message.contains("line 3, column 8") == true)
    }

    @Test("invalid UTF-8 in text formats")
    func invalidUTF8() {
        var json = Data("[\"a".utf8)
        json.append(contentsOf: [0xC3, 0x28])
        json.append(contentsOf: Data("\"]".utf8))
        guard case .invalidUTF8? = error(JSONFormat(), json) else {
            Testing.Issue.record("expected invalidUTF8 for JSON")
            return
        }
        var plist = Data("<plist><string>".utf8)
        plist.append(contentsOf: [0xFF])
        plist.append(contentsOf: Data("</string></plist>".utf8))
        guard case .invalidUTF8? = error(PropertyListFormat(.xml), plist) else {
            Testing.Issue.record("expected invalidUTF8 for XML")
            return
        }
        #expect(error(JSONFormat(), Data(#"["\ud800"]"#.utf8)) != nil)
    }

    @Test("numbers out of range")
    func numbers() throws {
        guard case .numberOutOfRange? = error(JSONFormat(), Data("[1e999]".utf8)) else {
            Testing.Issue.record("expected numberOutOfRange")
            return
        }
        #expect(throws: SerializationError.self) { try Serializer(.json).read([Int8].self, from: "[300]") }
        #expect(throws: SerializationError.self) { try Serializer(.json).read([Int].self, from: "[1e30]") }
        #expect(throws: SerializationError.self) { try Serializer(.json).read([Int].self, from: "[1.5]") }
        #expect(throws: SerializationError.self) {
            try Serializer(.json).read([Int].self, from: "[99999999999999999999]")
        }
        #expect(try Serializer(.json).read([Double].self, from: "[99999999999999999999]") == [1e20])
    }

    @Test("10 000-deep nesting is refused in every text format")
    func deepNesting() {
        let json = Data((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8)
        guard case .tooDeep(limit: 512, _)? = error(JSONFormat(), json) else {
            Testing.Issue.record("expected tooDeep for JSON")
            return
        }
        let xml = Data(("<plist>" + String(repeating: "<array>", count: 10_000) + "</plist>").utf8)
        guard case .tooDeep? = error(PropertyListFormat(.xml), xml) else {
            Testing.Issue.record("expected tooDeep for XML")
            return
        }
    }

    @Test("a 100 MB string is read in linear time")
    func hugeString() throws {
        var data = Data(capacity: 100_000_010)
        data.append(UInt8(ascii: "["))
        data.append(UInt8(ascii: "\""))
        data.append(Data(repeating: UInt8(ascii: "x"), count: 100_000_000))
        data.append(contentsOf: Array("\"]".utf8))
        let tree = try JSONFormat().tree(from: data)
        #expect(tree[0]?.stringValue?.utf8.count == 100_000_000)
        #expect(error(JSONFormat(), data.dropLast(2)) != nil)
    }

    @Test("duplicate keys are an error unless allowed")
    func duplicateKeys() throws {
        guard case .duplicateKey("a", _)? = error(JSONFormat(), Data(#"{"a":1,"b":2,"a":3}"#.utf8)) else {
            Testing.Issue.record("expected duplicateKey")
            return
        }
        let many = "{" + (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k7\":0}"
        #expect(error(JSONFormat(), Data(many.utf8)) != nil)
        #expect(try JSONFormat(allowsDuplicateKeys: true).tree(from: Data(#"{"a":1,"a":3}"#.utf8)) == ["a": 3])
        let xml = Data("<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>".utf8)
        guard case .duplicateKey? = error(PropertyListFormat(.xml), xml) else {
            Testing.Issue.record("expected duplicateKey in XML")
            return
        }
    }

    /// A binary property list from raw objects, so hostile layouts can be built.
    static func bplist(objects: [[UInt8]], top: Int = 0, refWidth: UInt8 = 1, offsets: [Int]? = nil) -> Data {
        var bytes = Array("bplist00".utf8)
        var computed: [Int] = []
        for object in objects {
            computed.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets ?? computed { bytes.append(UInt8(truncatingIfNeeded: offset)) }
        bytes += [0, 0, 0, 0, 0, 0, 1, refWidth]
        func word(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        bytes += word(objects.count) + word(top) + word(table)
        return Data(bytes)
    }

    @Test("a binary property list with a cycle is an error")
    func cyclicBinary() {
        // Object 0 is an array holding object 1, an array holding object 0.
        let data = Self.bplist(objects: [[0xA1, 1], [0xA1, 0]])
        guard case .malformed(let reason, _)? = error(PropertyListFormat(.binary), data) else {
            Testing.Issue.record("expected malformed")
            return
        }
        #expect(reason.contains("cycle"))
        #expect(error(PropertyListFormat(.binary), Self.bplist(objects: [[0xA1, 0]])) != nil)
    }

    @Test("out-of-range offsets and references in a binary property list are errors")
    func outOfRange() {
        #expect(error(PropertyListFormat(.binary), Self.bplist(objects: [[0xA1, 9]])) != nil)
        #expect(
            error(PropertyListFormat(.binary), Self.bplist(objects: [[0xA1, 1], [0x09]], offsets: [8, 250])) != nil)
        #expect(
            error(
                PropertyListFormat(.binary),
                Self.bplist(objects: [[0x5F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]])) != nil)
        #expect(error(PropertyListFormat(.binary), Self.bplist(objects: [[0x09]], top: 5)) != nil)
    }

    @Test("a binary property list that shares objects exponentially is refused")
    func exponentialSharing() {
        // Object i is an array holding object i+1 twice: 2^60 values from 61 objects.
        var objects: [[UInt8]] = (0..<60).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x09])
        guard case .tooLarge? = error(PropertyListFormat(.binary), Self.bplist(objects: objects)) else {
            Testing.Issue.record("expected tooLarge")
            return
        }
    }

    @Test("NaN cannot be written as JSON")
    func nan() {
        #expect(throws: SerializationError.self) { try JSONFormat().data(from: [.double(.nan)]) }
    }
}
