import Foundation
import Testing

@testable import Serialization

// Documents Foundation's JSON coders write and read, and values that must survive the trip exactly.

@Suite("JSON interop with Foundation: its documents, exact dates and decimals")
struct FoundationJSONInteropTests {
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
}
