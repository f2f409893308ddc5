import Foundation
import PropertyBased

@testable import Serialization

/// Random ``KeyValue`` trees built from PropertyBased's generators, driven by a seeded `Xoshiro`
/// so that case *n* of a run is the same tree on every machine and every run.
///
/// Scalars cover every kind: extreme and random integers, integers beyond `Int` and decimals with
/// up to 38 digits (in canonical form, as readers return them), finite doubles from random bit
/// patterns, dates in years 1…9999, data, and strings with `$` prefixes, `"$null"`, YAML and XML
/// look-alikes, control characters and unicode; keys come from the same strings (the empty key
/// included). Containers nest a few levels, and some cases are wrapped in chains that reach the
/// depth limit exactly.
struct RandomTrees {
    /// The deepest nesting a case may reach (the formats' shared limit).
    var maximumDepth = KeyValue.defaultMaximumDepth
    /// Whether dates keep fractional seconds (XML property lists store whole seconds).
    var fractionalDates = true

    static let specialStrings: [String] = [
        "", "$null", "$$null", "$", "$ref", "$class", "null", "Null", "~", "true", "false", "yes", "no", "on", "0", "1",
        "-0", "1.0", "1e3", "0x10", "0o7", ".inf", "-.inf", ".nan", "NaN", " lead", "trail ", "  ", "line\nbreak",
        "cr\rlf\r\n", "tab\t", "quote\"", "apos'", "<&>", "]]>", "&amp;", "&#36;null", "<string>", "#comment",
        "- dash", ": colon", "key: value", "[1, 2]", "{a: b}", "@at", "`tick", "%percent", "!tag", "*alias", "&anchor",
        "|", ">", "---", "...", "😀", "a\u{308}", "\u{FEFF}bom", "ünïcødé", "日本語", "\u{0}nul", "\u{1}\u{1F}\u{7F}",
        "\u{85}\u{2028}\u{2029}", "\\backslash", "/slash",
    ]

    static let extremeIntegers: [Int] = [
        .min, .min + 1, -1, 0, 1, .max - 1, .max, Int(Int32.min), Int(Int32.max), 1 << 53, -(1 << 53) - 1,
        Int(UInt32.max),
    ]

    /// Integers beyond `Int`: `UInt64`, `Int128` and `UInt128` extremes, as decimal text.
    static let bigIntegers: [String] = [
        "9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
        "170141183460469231731687303715884105727", "-170141183460469231731687303715884105728",
        "340282366920938463463374607431768211455",
    ]

    static let specialDoubles: [Double] = [
        0, -0.0, 0.1, 0.1 + 0.2, 1.0 / 3, .ulpOfOne, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e23, 9_007_199_254_740_992, 1e-7,
        Double(Float(0.1)), .leastNonzeroMagnitude * 3,
    ]

    let percent = Gen.int(in: 0..<100)
    let anyInt = Gen.int()
    let smallInt = Gen.int(in: -1000...1000)
    let bits = Gen.uint64()
    let moderateDouble = Gen.double(in: -1e6...1e6)
    let digits = Gen.number.string(of: 1...38)
    let bigDigits = Gen.number.string(of: 20...38)
    let letters = Gen.letterOrNumber.string(of: 0...10)
    let basicScalar = Gen.unicodeScalar(in: "\u{0}"..."\u{D7FF}")
    let astralScalar = Gen.unicodeScalar(in: "\u{E000}"..."\u{10FFFF}")
    let length = Gen.int(in: 0...8)
    let byte = Gen<UInt8>.value(in: 0...255)
    let byteCount = Gen.int(in: 0...48)
    let date = Gen.dateTime(inYear: 1...9999)
    let childCount = Gen.int(in: 0...5)
    let chainLength = Gen.int(in: 0...KeyValue.defaultMaximumDepth)

    /// Case `index` of a run seeded with `seed`.
    func tree(case index: Int, seed: UInt64) -> KeyValue {
        var rng = Self.rng(seed: seed, case: index)
        var tree = value(depth: 0, maximumShallowDepth: 4, using: &rng)
        // One case in 25 is wrapped in a chain reaching (or nearly reaching) the limit.
        if percent.run(using: &rng) < 4 {
            let room = maximumDepth - tree.depth
            let wraps = room - min(room, chainLength.run(using: &rng) % 3)
            for level in 0..<wraps {
                tree = level % 2 == 0 ? .array([tree]) : .object([string(using: &rng): tree])
            }
        }
        return tree
    }

    /// The generator for case `index`: Xoshiro seeded from SplitMix64 of the run's seed and the case.
    static func rng(seed: UInt64, case index: Int) -> Xoshiro {
        var mixer = SplitMix64(seed: seed &* 0x1_0000_0001 &+ UInt64(index))
        return Xoshiro(seed: (mixer.next(), mixer.next(), mixer.next(), mixer.next()))
    }

    func value(depth: Int, maximumShallowDepth: Int, using rng: inout Xoshiro) -> KeyValue {
        let roll = percent.run(using: &rng)
        if depth < maximumShallowDepth, depth < maximumDepth, roll < 30 {
            let count = childCount.run(using: &rng)
            if roll < 15 {
                return .array(
                    (0..<count).map { _ in
                        value(depth: depth + 1, maximumShallowDepth: maximumShallowDepth, using: &rng)
                    }
                )
            }
            var object = KeyValueObject()
            for _ in 0..<count {
                object[string(using: &rng)] = value(
                    depth: depth + 1, maximumShallowDepth: maximumShallowDepth, using: &rng)
            }
            return .object(object)
        }
        return scalar(using: &rng)
    }

    func scalar(using rng: inout Xoshiro) -> KeyValue {
        switch percent.run(using: &rng) {
        case 0..<4: return .null
        case 4..<8: return .bool(percent.run(using: &rng) < 50)
        case 8..<14: return .int(Gen.element(of: Self.extremeIntegers).run(using: &rng) ?? 0)
        case 14..<20: return .int(anyInt.run(using: &rng))
        case 20..<24: return .int(smallInt.run(using: &rng))
        case 24..<30: return .double(finiteDouble(using: &rng))
        case 30..<34: return .double(Gen.element(of: Self.specialDoubles).run(using: &rng) ?? 0)
        case 34..<38: return .double(moderateDouble.run(using: &rng))
        case 38..<44: return decimal(using: &rng)
        case 44..<48: return bigInteger(using: &rng)
        case 48..<54: return .data(Data((0..<byteCount.run(using: &rng)).map { _ in byte.run(using: &rng) }))
        case 54..<60:
            let when = date.run(using: &rng)
            return .date(
                fractionalDates ? when : Date(timeIntervalSince1970: when.timeIntervalSince1970.rounded(.down)))
        default: return .string(string(using: &rng))
        }
    }

    func finiteDouble(using rng: inout Xoshiro) -> Double {
        while true {
            let candidate = Double(bitPattern: bits.run(using: &rng))
            if candidate.isFinite { return candidate }
        }
    }

    /// A decimal of up to 38 digits with the point anywhere, in canonical form.
    func decimal(using rng: inout Xoshiro) -> KeyValue {
        var text = digits.run(using: &rng)
        let point = Gen.int(in: 0...text.count).run(using: &rng)
        if point < text.count { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
        if text.hasPrefix(".") { text = "0" + text }
        if percent.run(using: &rng) < 50 { text = "-" + text }
        guard let decimal = Decimal(string: text, locale: NumberText.posix) else { return .int(0) }
        return KeyValue.number(decimal)
    }

    /// An integer beyond `Int` (20 to 38 digits, or a 64/128-bit extreme), as readers return it.
    func bigInteger(using rng: inout Xoshiro) -> KeyValue {
        var text =
            percent.run(using: &rng) < 50
            ? (Gen.element(of: Self.bigIntegers).run(using: &rng) ?? "0") : bigDigits.run(using: &rng)
        if text.first != "-", percent.run(using: &rng) < 30 { text = "-" + text }
        return KeyValue(numberText: text) ?? .int(0)
    }

    func string(using rng: inout Xoshiro) -> String {
        switch percent.run(using: &rng) {
        case 0..<30: return Gen.element(of: Self.specialStrings).run(using: &rng) ?? ""
        case 30..<50: return letters.run(using: &rng)
        case 50..<65: return "$" + letters.run(using: &rng)
        default:
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length.run(using: &rng) {
                scalars.append(
                    percent.run(using: &rng) < 80 ? basicScalar.run(using: &rng) : astralScalar.run(using: &rng))
            }
            return String(scalars)
        }
    }

    /// What `tree` reads back as from `format`, which stores some kinds as others: text formats
    /// hold data and dates as strings, XML property lists hold whole seconds, and binary ones
    /// hold decimals that are not 128-bit integers as their digits.
    static func expected(_ tree: KeyValue, from format: FormatKind) -> KeyValue {
        let isText = format == .json || format.name == "YAML"
        switch tree {
        case .data(let data) where isText: return .string(data.base64EncodedString())
        case .date(let date) where isText: return .string(ISO8601.string(from: date) ?? "")
        case .date(let date) where format == .xmlPropertyList:
            return .date(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
        case .decimal(let decimal) where format == .binaryPropertyList && NumberText.int128Words(decimal) == nil:
            return .string(decimal.description)
        case .array(let elements): return .array(elements.map { expected($0, from: format) })
        case .object(let object):
            return .object(KeyValueObject(object.map { ($0.key, expected($0.value, from: format)) }))
        default: return tree
        }
    }
}

extension RandomTrees {
    /// Where two trees first differ, and how: for failure messages that point at the value.
    static func difference(_ a: KeyValue, _ b: KeyValue, at path: KeyValuePath = KeyValuePath([])) -> String? {
        let at = path.components.count > 20 ? "a path of \(path.components.count) steps" : "\(path)"
        switch (a, b) {
        case (.array(let left), .array(let right)):
            guard left.count == right.count else { return "\(left.count) elements vs \(right.count) at \(at)" }
            for (index, pair) in zip(left, right).enumerated() {
                if let found = difference(pair.0, pair.1, at: path.appending(.index(index))) { return found }
            }
            return nil
        case (.object(let left), .object(let right)):
            guard Set(left.keys) == Set(right.keys) else {
                return
                    "keys \(left.keys.sorted().map(\.debugDescription)) vs \(right.keys.sorted().map(\.debugDescription)) at \(at)"
            }
            for entry in left {
                if let found = difference(entry.value, right[entry.key] ?? .null, at: path.appending(.key(entry.key))) {
                    return found
                }
            }
            return nil
        default:
            return a == b ? nil : "\(String(reflecting: a)) vs \(String(reflecting: b)) at \(at)"
        }
    }
}
