import Foundation
import Testing

@testable import Serialization

// Property lists, XML and binary, read and written beside Foundation's coders.

@Suite("Property lists interoperate with Foundation's, at every size")
struct PropertyListInteropTests {
    let record = Record(
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
