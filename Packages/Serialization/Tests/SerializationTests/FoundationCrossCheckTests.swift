import Foundation
import PropertyBased
import Testing

@testable import Serialization

/// Cross-checks with Foundation's coders on random models: what we write, `JSONDecoder` and
/// `PropertyListDecoder` read back equal; what `JSONEncoder` and `PropertyListEncoder` write, we
/// read back equal. Seeded, 400 models per direction and format.
///
/// Left out where the two cannot agree:
/// - `Decimal` in property lists (Foundation stores a `Double`);
/// - fractional seconds where Foundation's ISO 8601 and XML dates keep whole seconds, and dates
///   before 1583: Foundation's ISO 8601 uses the Julian calendar before the Gregorian reform,
///   ISO 8601 (and this package) the proleptic Gregorian one, so early dates differ by days;
/// - control characters in XML (XML 1.0 cannot hold them);
/// - in binary plists we write, a `Float` that is not exactly a binary fraction: we store the
///   `Double` with the Float's shortest decimal (`0.1`), which reads back as the same `Float` here
///   but which `PropertyListDecoder` refuses as "does not fit in Float";
/// - from Foundation's plists only, strings that are `"$null"` (the documented ambiguity:
///   Foundation writes nil the same way), and in property lists either way, a dictionary key
///   `"$null"`, which `PropertyListDecoder` cannot read even from `PropertyListEncoder`.
@Suite("Cross-checks with Foundation's coders")
struct FoundationCrossCheckTests {
    struct Sample: Codable, Equatable {
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var int: Int
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
        var uint: UInt
        var double: Double
        var float: Float
        var decimal: Decimal?
        var bool: Bool
        var string: String
        var optional: String?
        var date: Date
        var data: Data
        var strings: [String]
        var counts: [String: Int]
        var children: [Sample]
    }

    /// What a format can carry through Foundation's coders both ways.
    struct Limits {
        var decimals: Bool
        var fractionalDates: Bool
        var controlCharacters: Bool
        var dollarNull: Bool
        var inexactFloats = true
        var dollarNullKeys = true
    }

    static let cases = 400

    static func sample(case index: Int, seed: UInt64, limits: Limits) -> Sample {
        var rng = RandomTrees.rng(seed: seed, case: index)
        return sample(depth: 0, limits: limits, using: &rng)
    }

    static func sample(depth: Int, limits: Limits, using rng: inout Xoshiro) -> Sample {
        let trees = RandomTrees()
        func text(key: Bool = false) -> String {
            while true {
                let candidate = trees.string(using: &rng)
                if key, !limits.dollarNullKeys, candidate == "$null" { continue }
                if !limits.controlCharacters, candidate.unicodeScalars.contains(where: Self.isControl) { continue }
                if !limits.dollarNull, candidate == "$null" { continue }
                return candidate
            }
        }
        var decimal: Decimal?
        if limits.decimals, case .decimal(let value) = trees.decimal(using: &rng) { decimal = value }
        if limits.decimals, decimal == nil, case .double(let value) = trees.decimal(using: &rng) {
            decimal = Decimal(string: value.description, locale: NumberText.posix)
        }
        var date = Gen.dateTime(inYear: 1583...9999).run(using: &rng)
        if !limits.fractionalDates { date = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
        let childCount = depth < 2 ? Gen.int(in: 0...2).run(using: &rng) : 0
        return Sample(
            int8: Gen.int8().run(using: &rng), int16: Gen.int16().run(using: &rng), int32: Gen.int32().run(using: &rng),
            int64: Gen.int64().run(using: &rng),
            int: Gen.element(of: RandomTrees.extremeIntegers).run(using: &rng) ?? 0,
            uint8: Gen.uint8().run(using: &rng), uint16: Gen.uint16().run(using: &rng),
            uint32: Gen.uint32().run(using: &rng), uint64: Gen.uint64().run(using: &rng),
            uint: Gen.uint().run(using: &rng),
            double: trees.finiteDouble(using: &rng),
            float: limits.inexactFloats
                ? Gen.float(in: -1e30...1e30).run(using: &rng)
                : Float(Gen.int(in: -1_000_000...1_000_000).run(using: &rng)) / 4,
            decimal: decimal, bool: Gen.bool.run(using: &rng), string: text(),
            optional: Gen.bool.run(using: &rng) ? text() : nil, date: date,
            data: Data((0..<trees.byteCount.run(using: &rng)).map { _ in trees.byte.run(using: &rng) }),
            strings: (0..<Gen.int(in: 0...3).run(using: &rng)).map { _ in text() },
            counts: Dictionary(
                (0..<Gen.int(in: 0...3).run(using: &rng)).map { _ in (text(key: true), trees.anyInt.run(using: &rng)) }
            ) {
                first, _ in first
            },
            children: (0..<childCount).map { _ in sample(depth: depth + 1, limits: limits, using: &rng) })
    }

    /// Where two samples differ, through their trees.
    static func difference(_ a: Sample, _ b: Sample) -> String {
        guard let left = try? KeyValue(encoding: a), let right = try? KeyValue(encoding: b) else { return "?" }
        return RandomTrees.difference(left, right) ?? "(equal trees)"
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    @Test("our JSON reads back equal in JSONDecoder, and JSONEncoder's in ours")
    func json() throws {
        let limits = Limits(decimals: true, fractionalDates: false, controlCharacters: true, dollarNull: true)
        let ours = Serializer(.json)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        for number in 0..<Self.cases {
            let sample = Self.sample(case: number, seed: 11, limits: limits)
            let theirs = try decoder.decode(Sample.self, from: ours.data(sample))
            #expect(
                theirs == sample, "seed 11 case \(number): JSONDecoder read ours: \(Self.difference(sample, theirs))")
            let back = try ours.read(Sample.self, from: encoder.encode(sample))
            #expect(back == sample, "seed 11 case \(number): we read JSONEncoder's: \(Self.difference(sample, back))")
            if theirs != sample || back != sample { return }
        }
    }

    @Test(
        "our property lists read back equal in PropertyListDecoder, and PropertyListEncoder's in ours",
        arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func propertyLists(format: PropertyListSerialization.PropertyListFormat) throws {
        let isXML = format == .xml
        let ours = Serializer(PropertyListFormat(isXML ? .xml : .binary))
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        let seed: UInt64 = isXML ? 12 : 13
        for number in 0..<Self.cases {
            let toThem = Self.sample(
                case: number, seed: seed,
                limits: Limits(
                    decimals: false, fractionalDates: !isXML, controlCharacters: !isXML, dollarNull: true,
                    inexactFloats: isXML, dollarNullKeys: false))
            let theirs = try PropertyListDecoder().decode(Sample.self, from: ours.data(toThem))
            #expect(
                theirs == toThem,
                "seed \(seed) case \(number): PropertyListDecoder read ours: \(Self.difference(toThem, theirs))")
            let fromThem = Self.sample(
                case: number, seed: seed,
                limits: Limits(
                    decimals: false, fractionalDates: !isXML, controlCharacters: !isXML, dollarNull: false,
                    dollarNullKeys: false))
            let back = try ours.read(Sample.self, from: encoder.encode(fromThem))
            #expect(
                back == fromThem,
                "seed \(seed) case \(number): we read PropertyListEncoder's: \(Self.difference(fromThem, back))")
            if theirs != toThem || back != fromThem { return }
        }
    }
}
