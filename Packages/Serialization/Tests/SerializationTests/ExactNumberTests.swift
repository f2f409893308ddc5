import Foundation
import Testing

@testable import Serialization

/// Numbers round-trip exactly: every fixed-width integer (UInt64 above Int.max included),
/// Int128/UInt128, Decimal (never through Double), and finite Doubles bit for bit.
@Suite("Exact numbers in every format")
struct ExactNumberTests {
    struct Integers: Codable, Equatable {
        var int8: [Int8] = [.min, -1, 0, .max]
        var int16: [Int16] = [.min, .max]
        var int32: [Int32] = [.min, .max]
        var int64: [Int64] = [.min, -1, .max]
        var int: [Int] = [.min, .max]
        var uint8: [UInt8] = [0, .max]
        var uint16: [UInt16] = [.max]
        var uint32: [UInt32] = [.max]
        var uint64: [UInt64] = [0, UInt64(Int64.max), UInt64(Int64.max) + 1, .max - 1, .max]
        var uint: [UInt] = [.max]
        var single: UInt64 = .max
        var optional: UInt64? = .max
    }

    @Test("Int8…UInt64 at their extremes round-trip, UInt64 above Int.max included", arguments: Formats.all)
    func fixedWidthIntegers(format: any DataFormat) throws {
        let serializer = Serializer(format: format)
        let value = Integers()
        #expect(try serializer.read(Integers.self, from: serializer.data(value)) == value)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct Wide: Codable, Equatable {
        var signed: [Int128] = [.min, .min + 1, Int128(Int64.min) - 1, -1, 0, Int128(UInt64.max) + 1, .max]
        var unsigned: [UInt128] = [0, UInt128(UInt64.max), UInt128(Int128.max), UInt128(Int128.max) + 1, .max]
        var single: Int128 = .min
        var top: UInt128 = .max
    }

    @Test("Int128 and UInt128 round-trip at their extremes", arguments: Formats.all)
    func wideIntegers(format: any DataFormat) throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        let serializer = Serializer(format: format)
        let value = Wide()
        #expect(try serializer.read(Wide.self, from: serializer.data(value)) == value)
    }

    static let decimals: [Decimal] = [
        "0", "0.1", "-0.5", "3.14159265358979323846", "-12345678901234567890.5", "18446744073709551616",
        "99999999999999999999999999999999999999", "-170141183460469231731687303715884105728",
        "0.00000000000000000000000000000000000001", "123456789012345678901234567890.12345678", "1e-100", "1e100",
        "12345.6789", "0.30000000000000004", "0.30000000000000005",
    ].map { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX"))! }

    @Test("Decimal round-trips exactly, never through Double", arguments: Formats.all)
    func decimals(format: any DataFormat) throws {
        let serializer = Serializer(format: format)
        let back = try serializer.read([Decimal].self, from: serializer.data(Self.decimals))
        #expect(back == Self.decimals)
        for (read, written) in zip(back, Self.decimals) { #expect(read.description == written.description) }
    }

    static let doubles: [Double] = [
        0, -0.0, 0.1, 0.1 + 0.2, 1.0 / 3, -2.5, 1e23, 9_007_199_254_740_992, .ulpOfOne, .leastNonzeroMagnitude,
        -.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e-7,
        123_456_789.123_456_78, Double(Float(0.1)), Double(bitPattern: 0x000F_FFFF_FFFF_FFFF),
    ]

    @Test("finite Doubles come back bit for bit", arguments: Formats.all)
    func doubles(format: any DataFormat) throws {
        var generator = SplitMix64(seed: 19)
        var values = Self.doubles
        while values.count < 2000 {
            let candidate = Double(bitPattern: generator.next())
            if candidate.isFinite { values.append(candidate) }
        }
        let serializer = Serializer(format: format)
        let back = try serializer.read([Double].self, from: serializer.data(values))
        #expect(back.map(\.bitPattern) == values.map(\.bitPattern))
        #expect(
            try format.tree(from: format.data(from: .array(values.map(KeyValue.double))))
                == .array(values.map(KeyValue.double)))
    }

    @Test("JSON numbers from other writers read exactly")
    func jsonFromOthers() throws {
        let json = Serializer(.json)
        #expect(try json.read([UInt64].self, from: "[18446744073709551615]") == [.max])
        #expect(
            try json.read([Decimal].self, from: "[3.14159265358979323846]") == [
                Decimal(string: "3.14159265358979323846")!
            ])
        #expect(
            try json.read([Decimal].self, from: "[123456789012345678901234567890]") == [
                Decimal(string: "123456789012345678901234567890")!
            ])
        #expect(try json.read([Double].self, from: "[3.14159265358979323846]") == [3.141592653589793])
        #expect(throws: SerializationError.self) { try json.read([Int64].self, from: "[9223372036854775808]") }
        #expect(throws: SerializationError.self) { try json.read([UInt64].self, from: "[18446744073709551616]") }
        #expect(throws: SerializationError.self) { try json.read([UInt64].self, from: "[-1]") }
        #expect(throws: SerializationError.self) { try json.read([Int].self, from: "[1.5]") }
    }

    @Test("the tree holds the canonical number, and readers return it")
    func canonicalTree() throws {
        #expect(KeyValue.number(Decimal(string: "42")!) == .int(42))
        #expect(KeyValue.number(Decimal(string: "0.1")!) == .double(0.1))
        #expect(KeyValue.number(Decimal(UInt64.max)) == .decimal(Decimal(UInt64.max)))
        let pi = Decimal(string: "3.14159265358979323846")!
        #expect(KeyValue.number(pi) == .decimal(pi))
        #expect(KeyValue(numberText: "3.14159265358979323846") == .decimal(pi))
        #expect(KeyValue(numberText: "0.30000000000000004") == .double(0.1 + 0.2))
        #expect(KeyValue(numberText: "1e+30") == .double(1e30))
        #expect(KeyValue(numberText: "-7") == .int(-7))
        #expect(KeyValue(numberText: "abc") == nil)
        #expect(try KeyValue(encoding: UInt64.max) == .decimal(Decimal(UInt64.max)))
        let tree: KeyValue = ["big": .decimal(Decimal(UInt64.max)), "pi": .decimal(pi), "small": 1, "ratio": 0.5]
        for format in Formats.all {
            let back = try format.tree(from: format.data(from: tree))
            if format.kind == .binaryPropertyList {
                // No binary number holds 21 digits: the digits are kept as a string.
                var expected = tree
                expected["pi"] = .string(pi.description)
                #expect(back == expected)
            } else {
                #expect(back == tree, "\(format.kind)")
            }
        }
    }

    @Test(
        "a UInt64 above Int64.max written by PropertyListEncoder reads back",
        arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func foundationPlistUInt64(format: PropertyListSerialization.PropertyListFormat) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        let data = try encoder.encode(["value": UInt64.max])
        let ours = Serializer(PropertyListFormat(format == .xml ? .xml : .binary))
        #expect(try ours.read([String: UInt64].self, from: data) == ["value": .max])
        #expect(
            try PropertyListDecoder().decode([String: UInt64].self, from: ours.data(["value": UInt64.max])) == [
                "value": .max
            ])
    }

    @Test("Decimal as JSON numbers agrees with JSONEncoder and JSONDecoder both ways")
    func foundationJSONDecimal() throws {
        let values = Self.decimals
        let ours = Serializer(.json)
        #expect(try JSONDecoder().decode([Decimal].self, from: ours.data(values)) == values)
        #expect(try ours.read([Decimal].self, from: JSONEncoder().encode(values)) == values)
    }

    @Test("a NaN Decimal is refused with a typed error")
    func nanDecimal() {
        #expect(throws: SerializationError.self) { try Serializer(.json).data([Decimal.nan]) }
    }
}

/// A small seeded generator, so random cases are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
