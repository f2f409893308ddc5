import Foundation

/// Writes a ``KeyValue`` as a binary property list (`bplist00`), as CoreFoundation lays it out:
/// objects, then the offset table, then the 32-byte trailer. Strings are stored once.
struct BinaryPropertyListWriter {
    /// One object of the flattened tree.
    enum FlatObject {
        case scalar(KeyValue)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    var objects: [FlatObject] = []
    var strings: [String: Int] = [:]
    /// The one object null is written as (an ASCII "$null"), apart from a string "$null".
    var nullObject: Int?
    var bytes: [UInt8] = []
    var maximumDepth = KeyValue.defaultMaximumDepth

    static func data(from tree: KeyValue, maximumDepth: Int = KeyValue.defaultMaximumDepth) throws -> Data {
        var writer = BinaryPropertyListWriter()
        writer.maximumDepth = maximumDepth
        let top = try writer.flatten(tree, depth: 0)
        return Data(writer.serialize(top: top))
    }

    mutating func string(_ text: String) -> Int {
        if let existing = strings[text] { return existing }
        objects.append(.scalar(.string(text)))
        strings[text] = objects.count - 1
        return objects.count - 1
    }

    /// The error for a container nested deeper than the limit; callers up the recursion add
    /// their key path components as it unwinds, so the error path costs nothing until it is taken.
    func tooDeep() -> SerializationError {
        .tooDeep(limit: maximumDepth, SerializationError.Location(format: "binary property list"))
    }

    /// Numbers the objects depth first, containers before their contents; `depth` counts the
    /// containers around `value`.
    mutating func flatten(_ value: KeyValue, depth: Int) throws(SerializationError) -> Int {
        switch value {
        case .string(let text): return string(text)
        case .null:
            if let nullObject { return nullObject }
            objects.append(.scalar(.null))
            nullObject = objects.count - 1
            return objects.count - 1
        case .array(let array):
            guard depth < maximumDepth else { throw tooDeep() }
            let id = objects.count
            objects.append(.array([]))
            var refs: [Int] = []
            refs.reserveCapacity(array.count)
            for (position, element) in array.enumerated() {
                do { refs.append(try flatten(element, depth: depth + 1)) } catch {
                    throw error.nested(under: KeyValuePath([.index(position)]))
                }
            }
            objects[id] = .array(refs)
            return id
        case .object(let object):
            guard depth < maximumDepth else { throw tooDeep() }
            let id = objects.count
            objects.append(.array([]))
            let sorted = JSONWriter.sorted(object.entries)
            var keys: [Int] = []
            var values: [Int] = []
            keys.reserveCapacity(sorted.count)
            values.reserveCapacity(sorted.count)
            for entry in sorted { keys.append(string(entry.key)) }
            for entry in sorted {
                do { values.append(try flatten(entry.value, depth: depth + 1)) } catch {
                    throw error.nested(under: KeyValuePath([.key(entry.key)]))
                }
            }
            objects[id] = .dictionary(keys: keys, values: values)
            return id
        case .decimal(let number):
            guard !number.isNaN else {
                throw .unsupportedValue("the number NaN", SerializationError.Location(format: "binary property list"))
            }
            // Integers up to 128 bits are native; other decimals have no binary form and are
            // stored as their digits, which decode back to the same Decimal.
            if NumberText.int128Words(number) == nil { return string(number.description) }
            objects.append(.scalar(value))
            return objects.count - 1
        default:
            objects.append(.scalar(value))
            return objects.count - 1
        }
    }

    static func byteWidth(for value: Int) -> Int {
        if value < 1 << 8 { return 1 }
        if value < 1 << 16 { return 2 }
        if value < 1 << 32 { return 4 }
        return 8
    }

    mutating func appendBigEndian(_ value: UInt64, width: Int) {
        var shift = (width - 1) * 8
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    mutating func appendInteger(_ value: Int) {
        if value < 0 {
            bytes.append(0x13)
            appendBigEndian(UInt64(bitPattern: Int64(value)), width: 8)
            return
        }
        let width = Self.byteWidth(for: value)
        bytes.append(0x10 | UInt8(width.trailingZeroBitCount))
        appendBigEndian(UInt64(value), width: width)
    }

    mutating func appendMarker(_ type: UInt8, count: Int) {
        if count < 15 {
            bytes.append(type | UInt8(count))
        } else {
            bytes.append(type | 0x0F)
            appendInteger(count)
        }
    }

    mutating func serialize(top: Int) -> [UInt8] {
        let refWidth = Self.byteWidth(for: max(objects.count - 1, 0))
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        bytes.reserveCapacity(objects.count * 8 + 64)
        bytes.append(contentsOf: Array("bplist00".utf8))
        for object in objects {
            offsets.append(bytes.count)
            switch object {
            case .scalar(let value): appendScalar(value)
            case .array(let refs):
                appendMarker(0xA0, count: refs.count)
                for ref in refs { appendBigEndian(UInt64(ref), width: refWidth) }
            case .dictionary(let keys, let values):
                appendMarker(0xD0, count: keys.count)
                for ref in keys { appendBigEndian(UInt64(ref), width: refWidth) }
                for ref in values { appendBigEndian(UInt64(ref), width: refWidth) }
            }
        }
        let tableOffset = bytes.count
        let offsetWidth = Self.byteWidth(for: tableOffset)
        for offset in offsets { appendBigEndian(UInt64(offset), width: offsetWidth) }
        bytes.append(contentsOf: [0, 0, 0, 0, 0, 0])
        bytes.append(UInt8(offsetWidth))
        bytes.append(UInt8(refWidth))
        appendBigEndian(UInt64(objects.count), width: 8)
        appendBigEndian(UInt64(top), width: 8)
        appendBigEndian(UInt64(tableOffset), width: 8)
        return bytes
    }

    mutating func appendScalar(_ value: KeyValue) {
        switch value {
        case .bool(let bool): bytes.append(bool ? 0x09 : 0x08)
        case .int(let number): appendInteger(number)
        case .double(let number):
            bytes.append(0x23)
            appendBigEndian(number.bitPattern, width: 8)
        case .decimal(let number):
            // flatten stored only decimals that are 128-bit integers as scalars.
            let (high, low) = NumberText.int128Words(number) ?? (0, 0)
            bytes.append(0x14)
            appendBigEndian(high, width: 8)
            appendBigEndian(low, width: 8)
        case .date(let date):
            bytes.append(0x33)
            appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, width: 8)
        case .data(let data):
            appendMarker(0x40, count: data.count)
            bytes.append(contentsOf: data)
        case .null:
            // Property lists have no null; PropertyListEncoder writes nil as this ASCII string.
            appendMarker(0x50, count: 5)
            bytes.append(contentsOf: "$null".utf8)
        case .string(let text):
            // A string that is "$null" is stored as UTF-16 so that it does not read as null.
            if text.utf8.allSatisfy({ $0 < 0x80 }) && !(text.utf8.count == 5 && text == "$null") {
                appendMarker(0x50, count: text.utf8.count)
                bytes.append(contentsOf: text.utf8)
            } else {
                let units = Array(text.utf16)
                appendMarker(0x60, count: units.count)
                for unit in units { appendBigEndian(UInt64(unit), width: 2) }
            }
        case .array, .object:
            break  // flattened before; never scalars
        }
    }
}
