import Foundation

/// Writes a ``KeyValue`` as JSON into a byte buffer.
struct JSONWriter {
    let prettyPrinted: Bool
    let sortedKeys: Bool
    let maximumDepth: Int
    var bytes: [UInt8] = []
    var indent = 0
    var path: [KeyValuePath.Component] = []

    init(prettyPrinted: Bool, sortedKeys: Bool, maximumDepth: Int = KeyValue.defaultMaximumDepth) {
        self.prettyPrinted = prettyPrinted
        self.sortedKeys = sortedKeys
        self.maximumDepth = maximumDepth
        bytes.reserveCapacity(4096)
    }

    mutating func write(_ value: KeyValue) throws {
        switch value {
        case .null: append("null")
        case .bool(let bool): append(bool ? "true" : "false")
        case .int(let number): writeInteger(number)
        case .double(let number):
            guard number.isFinite else {
                throw SerializationError.unsupportedValue(
                    "the number \(number) in JSON",
                    SerializationError.Location(format: "JSON", keyPath: KeyValuePath(path)))
            }
            append(number.description)
        case .decimal(let number):
            guard !number.isNaN else {
                throw SerializationError.unsupportedValue(
                    "the number NaN in JSON", SerializationError.Location(format: "JSON", keyPath: KeyValuePath(path)))
            }
            // Plain digits (Decimal never prints an exponent), read back as the same decimal.
            append(KeyValue.numberText(number))
        case .string(let string): writeString(string)
        case .data(let data):
            bytes.append(UInt8(ascii: "\""))
            append(data.base64EncodedString())
            bytes.append(UInt8(ascii: "\""))
        case .date(let date):
            bytes.append(UInt8(ascii: "\""))
            guard ISO8601.write(date, into: &bytes) else {
                throw SerializationError.unsupportedValue(
                    "the date \(date.timeIntervalSince1970)s after 1970, whose year is outside 1…9999, in ISO 8601",
                    SerializationError.Location(format: "JSON", keyPath: KeyValuePath(path)))
            }
            bytes.append(UInt8(ascii: "\""))
        case .array(let array):
            // `path` holds one component per enclosing container, so this array is at depth
            // path.count + 1, counted as the reader counts it.
            guard path.count < maximumDepth else { throw tooDeep() }
            bytes.append(UInt8(ascii: "["))
            if array.isEmpty {
                bytes.append(UInt8(ascii: "]"))
                return
            }
            indent += 1
            for (position, element) in array.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline()
                path.append(.index(position))
                try write(element)
                path.removeLast()
            }
            indent -= 1
            newline()
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            guard path.count < maximumDepth else { throw tooDeep() }
            bytes.append(UInt8(ascii: "{"))
            if object.isEmpty {
                bytes.append(UInt8(ascii: "}"))
                return
            }
            indent += 1
            var first = true
            for entry in sortedKeys ? Self.sorted(object.entries) : object.entries {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                newline()
                writeString(entry.key)
                bytes.append(UInt8(ascii: ":"))
                if prettyPrinted { bytes.append(UInt8(ascii: " ")) }
                path.append(.key(entry.key))
                try write(entry.value)
                path.removeLast()
            }
            indent -= 1
            newline()
            bytes.append(UInt8(ascii: "}"))
        }
    }

    func tooDeep() -> SerializationError {
        .tooDeep(limit: maximumDepth, SerializationError.Location(format: "JSON", keyPath: KeyValuePath(path)))
    }

    /// Entries by key (UTF-8 byte order); insertion sort for the small objects models make.
    static func sorted(_ entries: [KeyValueObject.Element]) -> [KeyValueObject.Element] {
        if entries.count > 16 { return entries.sorted { KeyValueObject.precedes($0.key, $1.key) } }
        var result = entries
        var position = 1
        while position < result.count {
            let item = result[position]
            var hole = position
            while hole > 0, KeyValueObject.precedes(item.key, result[hole - 1].key) {
                result[hole] = result[hole - 1]
                hole -= 1
            }
            if hole != position { result[hole] = item }
            position += 1
        }
        return result
    }

    @inline(__always)
    mutating func newline() {
        guard prettyPrinted else { return }
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { bytes.append(contentsOf: [0x20, 0x20]) }
    }

    @inline(__always)
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func writeInteger(_ number: Int) {
        if number >= 0 && number < 10 {
            bytes.append(UInt8(48 + number))
            return
        }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let count = withUnsafeMutableBytes(of: &digits) { buffer -> Int in
            var position = buffer.count
            repeat {
                position -= 1
                buffer[position] = UInt8(48 + magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if number < 0 {
                position -= 1
                buffer[position] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[position...]))
            return buffer.count - position
        }
        _ = count
    }

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    mutating func writeString(_ string: String) {
        var string = string
        bytes.append(UInt8(ascii: "\""))
        string.withUTF8 { utf8 in
            var start = 0
            for position in 0..<utf8.count {
                let byte = utf8[position]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if start < position { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<position])) }
                start = position + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), 48, 48])
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0xF)])
                }
            }
            if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
