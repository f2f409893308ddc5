import Foundation
import Testing

@testable import Serialization

// Numbers at the edges of what JSON text and Swift's number types can hold.

@Suite("JSON numbers: signs, range, precision and malformed forms")
struct JSONNumberTests {
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
