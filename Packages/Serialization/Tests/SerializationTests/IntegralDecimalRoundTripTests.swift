import Foundation
import SerializationYAML
import Testing

@testable import Serialization

/// A number written with a fraction that is an integer (`3183300714855019877.000`) but more
/// digits than a `Double` holds is read as a ``KeyValue/decimal(_:)``. Written as plain digits it
/// would come back as an ``KeyValue/int(_:)``, a different tree: every text format writes it so
/// that it reads back as the same decimal.
@Suite("Integral decimals read back as decimals")
struct IntegralDecimalRoundTripTests {
    static let texts = [
        "3183300714855019877.000", "-3183300714855019877.0", "1152921504606846976.0", "9223372036854775807.0",
        "-9223372036854775808.0", "9007199254740993.00",
    ]

    static let formats: [any DataFormat] = [
        JSONFormat(), JSONFormat(prettyPrinted: true), PropertyListFormat(.xml), YAMLFormat(),
    ]

    @Test("the reader's decimal survives a write and a read", arguments: texts, 0..<formats.count)
    func roundTrip(text: String, format: Int) throws {
        let value = try #require(KeyValue(numberText: text))
        guard case .decimal = value else {
            Testing.Issue.record("\(text) reads as \(value), not a decimal")
            return
        }
        let tree: KeyValue = ["n": value, "list": [value, .int(1)]]
        let written = try Self.formats[format].data(from: tree)
        #expect(try Self.formats[format].tree(from: written) == tree)
    }

    @Test("the text written for a decimal reads back as that decimal, or as plain digits when none can")
    func numberText() throws {
        let big = try #require(Decimal(string: "3183300714855019877", locale: NumberText.posix))
        #expect(KeyValue.numberText(big) == "3183300714855019877.0")
        #expect(KeyValue(numberText: KeyValue.numberText(big)) == .decimal(big))
        // Beyond Int the digits alone read as a decimal; a fraction keeps its digits.
        let huge = try #require(Decimal(string: "92233720368547758080", locale: NumberText.posix))
        #expect(KeyValue.numberText(huge) == "92233720368547758080")
        let fraction = try #require(Decimal(string: "0.30000000000000000001", locale: NumberText.posix))
        #expect(KeyValue.numberText(fraction) == "0.30000000000000000001")
        // `.decimal(4)` is not what any reader returns for a text; it stays plain digits.
        #expect(KeyValue.numberText(Decimal(4)) == "4")
    }

    @Test("JSON that holds such a number is written back byte for byte as read")
    func documentRoundTrip() throws {
        let text = #"{"n":3183300714855019877.0}"#
        let tree = try JSONFormat().tree(from: Data(text.utf8))
        #expect(String(decoding: try JSONFormat().data(from: tree), as: UTF8.self) == text)
    }
}
