// libFuzzer entry point for the Serialization readers and writers. Build and run with `Fuzz/fuzz.sh`.
//
// Each input is used twice:
// - as a document: every reader (JSON, XML and binary property lists, YAML) must return a tree or
//   a typed error, never crash or hang, and what it read must write and read back; and the
//   one-pass JSON model reader must give what the tree reader and decoder give;
// - as a recipe for a tree (`TreeRecipe`): every writer must write it and its reader read it back
//   equal (up to the kinds a format stores as others), which fuzzes the writers from trees.
import Foundation
import Serialization
import SerializationYAML

private let formats: [any DataFormat] = [
    JSONFormat(), PropertyListFormat(.xml), PropertyListFormat(.binary), YAMLFormat(),
]

private struct Record: Codable {
    var title: String
    var count: Int?
    var when: Date?
    var tags: [String]?
    var nested: [Record]?
}

/// libFuzzer calls this with each input; any crash, hang or failed round trip is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    readDocument(data)
    var recipe = TreeRecipe(bytes: UnsafeRawBufferPointer(start: start, count: count))
    roundTrip(recipe.tree(depth: 0))
    return 0
}

/// A model `Serializer(.json).read` decodes in one pass, straight from the bytes.
private struct Plain: Codable, Equatable {
    var title: String
    var count: Int?
    var score: Double?
    var small: Int8?
    var flags: [Bool]?
    var map: [String: Int]?
    var nested: [Plain]?
}

private func readDocument(_ data: Data) {
    _ = Serializer.format(of: data)
    // The one-pass reader must agree with the two phases: the same value, or both an error.
    let onePass = try? Serializer(.json).read(Plain.self, from: data)
    let twoPhase = try? KeyValueDecoder().decode(Plain.self, from: JSONFormat().tree(from: data))
    if onePass != twoPhase {
        fatalError(
            "JSON: the one-pass reader read \(String(describing: onePass)), the tree \(String(describing: twoPhase))")
    }
    for format in formats {
        // Every reader must return a tree or a typed error, never crash or hang.
        guard let tree = try? format.tree(from: data) else { continue }
        _ = try? tree.decode(Record.self)
        _ = try? tree.decode([Record].self)
        // What was read must write and read back (NaN aside, which is never equal to itself).
        guard let written = try? format.data(from: tree) else { continue }
        guard let again = try? format.tree(from: written) else {
            fatalError("\(format.kind.name): output of the writer does not read back")
        }
        if format.kind == .json, again != tree {
            fatalError("JSON: tree changed in a round trip")
        }
    }
}

private func roundTrip(_ tree: KeyValue) {
    for format in formats {
        let written: Data
        do {
            written = try format.data(from: tree)
        } catch {
            // The one refusal a generated tree may meet: YAML cannot keep a leading U+FEFF.
            if format.kind.name == "YAML", "\(error)".contains("U+FEFF") { continue }
            fatalError("\(format.kind.name): the writer refused a valid tree: \(error)\n\(tree)")
        }
        let back: KeyValue
        do {
            back = try format.tree(from: written)
        } catch {
            fatalError("\(format.kind.name): what the writer wrote does not read: \(error)\n\(tree)")
        }
        let expected = stored(tree, in: format.kind)
        if back != expected {
            fatalError("\(format.kind.name): tree changed in a write → read round trip\n\(tree)\n→ \(back)")
        }
    }
}

/// What `tree` reads back as from a format that stores some kinds as others: text formats hold
/// data and dates as strings, XML property lists whole seconds, binary ones decimals that are not
/// 128-bit integers as their digits.
private func stored(_ tree: KeyValue, in format: FormatKind) -> KeyValue {
    let isText = format == .json || format.name == "YAML"
    switch tree {
    case .data(let data) where isText: return .string(data.base64EncodedString())
    case .date where isText:
        // The text JSON writes for the date (YAML writes the same).
        let text = (try? JSONFormat().tree(from: JSONFormat().data(from: [tree])))?[0]
        return text ?? tree
    case .date(let date) where format == .xmlPropertyList:
        return .date(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    case .decimal(let decimal) where format == .binaryPropertyList:
        // A 128-bit integer that fits Int reads back as one.
        let text = decimal.description
        if let integer = Int(text) { return .int(integer) }
        return text.contains(".") || Int128(text) == nil ? .string(text) : tree
    case .array(let elements): return .array(elements.map { stored($0, in: format) })
    case .object(let object):
        return .object(KeyValueObject(object.map { ($0.key, stored($0.value, in: format)) }))
    default: return tree
    }
}

/// Reads fuzzer bytes as instructions for building a tree: a kind, then what that kind needs.
/// Past the end every byte reads as zero, so every input makes a finite tree.
private struct TreeRecipe {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    static let strings = [
        "", "$null", "$$null", "$", "null", "~", "true", "1.0", "0x10", ".inf", "<&>", "]]>", "&#36;null", "- a",
        "a: b", "\u{0}", "\r\n", "\u{FEFF}x", "😀", "a\u{308}", "\u{2028}",
    ]

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    mutating func word() -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
        return value
    }

    var atEnd: Bool { position >= bytes.count }

    mutating func tree(depth: Int) -> KeyValue {
        switch byte() % 14 {
        case 0: return .null
        case 1: return .bool(byte() & 1 == 1)
        case 2: return .int(Int(truncatingIfNeeded: word()))
        case 3:
            let number = Double(bitPattern: word())
            return .double(number.isFinite ? number : 0)
        case 4:
            // Up to 38 digits with the point anywhere: a decimal in the form readers return.
            var text = byte() & 1 == 1 ? "-" : ""
            let count = Int(byte() % 38) + 1
            let point = Int(byte()) % (count + 1)
            for index in 0..<count {
                if index == point, index > 0 { text += "." }
                text += String(byte() % 10)
            }
            return KeyValue(numberText: text) ?? .int(0)
        case 5: return .string(string())
        case 6: return .data(Data((0..<Int(byte() % 40)).map { _ in byte() }))
        case 7:
            // Seconds in years 1…9999, with a fraction.
            let seconds = Double(word() % 315_537_897_600) - 62_135_596_800 + Double(byte()) / 256
            return .date(Date(timeIntervalSince1970: seconds))
        case 8, 9:
            guard depth < KeyValue.defaultMaximumDepth, !atEnd else { return .null }
            return .array((0..<Int(byte() % 5)).map { _ in tree(depth: depth + 1) })
        case 10, 11:
            guard depth < KeyValue.defaultMaximumDepth, !atEnd else { return .null }
            var object = KeyValueObject()
            for _ in 0..<Int(byte() % 5) { object[string()] = tree(depth: depth + 1) }
            return .object(object)
        case 12:
            // A chain of containers as deep as the limit allows, around one value.
            let inner = tree(depth: KeyValue.defaultMaximumDepth)
            var chain = inner
            for level in depth..<KeyValue.defaultMaximumDepth {
                chain = level % 2 == 0 ? .array([chain]) : .object(["k": chain])
            }
            return chain
        default: return .string(Self.strings[Int(byte()) % Self.strings.count])
        }
    }

    mutating func string() -> String {
        if byte() & 1 == 0 { return Self.strings[Int(byte()) % Self.strings.count] }
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int(byte() % 12) {
            let value = UInt32(byte()) << 12 | UInt32(byte()) << 4 | UInt32(byte() & 0xF)
            scalars.append(Unicode.Scalar(value % 0x11_0000) ?? "?")
        }
        return String(scalars)
    }
}
