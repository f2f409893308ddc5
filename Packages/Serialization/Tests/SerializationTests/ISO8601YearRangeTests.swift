import Foundation
import Testing

@testable import Serialization

/// ISO 8601's four-digit years spell 0001…9999; a date outside is refused with a typed error
/// rather than silently written as another date (it used to be clamped to 0001 or 9999).
@Suite("ISO 8601 years outside 1…9999 throw")
struct ISO8601YearRangeTests {
    static let outside: [Date] = [
        Date(timeIntervalSince1970: 253_402_300_800),  // 10000-01-01T00:00:00Z
        Date(timeIntervalSince1970: -62_135_596_801),  // 0000-12-31T23:59:59Z
        Date(timeIntervalSince1970: 1e12), Date(timeIntervalSince1970: -1e12),
    ]

    @Test("the first and last representable seconds are written and read back")
    func edges() throws {
        for (seconds, text) in [(-62_135_596_800.0, "0001-01-01T00:00:00Z"), (253_402_300_799, "9999-12-31T23:59:59Z")]
        {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ISO8601.string(from: date) == text)
            #expect(ISO8601.date(from: text) == date)
            #expect(try Serializer(.json).read([Date].self, from: Serializer(.json).data([date])) == [date])
        }
    }

    @Test("a date outside years 1…9999 is refused by the text formats, naming the key path", arguments: outside)
    func refused(date: Date) {
        #expect(ISO8601.string(from: date) == nil)
        for format in [JSONFormat(), PropertyListFormat(.xml)] as [any DataFormat] {
            let error = #expect(throws: SerializationError.self) { try Serializer(format: format).data(["when": date]) }
            guard case .unsupportedValue(_, let location)? = error else {
                Testing.Issue.record("\(format.kind): \(String(describing: error))")
                continue
            }
            #expect(location.keyPath == KeyValuePath([.key("when")]))
        }
    }

    @Test("binary property lists store such dates natively", arguments: outside)
    func binaryKeepsThem(date: Date) throws {
        let plist = Serializer(.binaryPropertyList)
        #expect(try plist.read([Date].self, from: plist.data([date])) == [date])
    }

    @Test("year 0000 is not read as a date")
    func yearZero() {
        #expect(ISO8601.date(from: "0000-06-01T00:00:00Z") == nil)
        #expect(throws: SerializationError.self) {
            try Serializer(.json).read([Date].self, from: #"["0000-06-01T00:00:00Z"]"#)
        }
    }
}
