import Foundation

extension JSONParser {
    /// A string starting at the opening quote; validates UTF-8 and decodes escapes.
    mutating func parseString() throws(SerializationError) -> String {
        let start = position + 1
        var cursor = start
        // Fast path: ASCII without escapes.
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                position = cursor + 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            cursor += 1
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<cursor]))
        while cursor < bytes.count {
            let byte = bytes[cursor]
            switch byte {
            case UInt8(ascii: "\""):
                position = cursor + 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                cursor = try parseEscape(at: cursor)
            case 0..<0x20:
                throw error(
                    "a control character (0x\(String(byte, radix: 16))) must be escaped in a string", at: cursor)
            case 0x80...:
                let length = try validateUTF8(at: cursor)
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[cursor..<(cursor + length)]))
                cursor += length
            default:
                scratch.append(byte)
                cursor += 1
            }
        }
        throw error("a string is not closed", at: bytes.count)
    }

    /// Decodes the escape at `offset` (a backslash) into `scratch`; returns the offset after it.
    mutating func parseEscape(at offset: Int) throws(SerializationError) -> Int {
        guard offset + 1 < bytes.count else { throw error("a string is not closed", at: bytes.count) }
        let code = bytes[offset + 1]
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(code)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "u"):
            var scalar = try hex4(at: offset + 2)
            var next = offset + 6
            if scalar >= 0xD800 && scalar < 0xDC00 {
                guard next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u")
                else {
                    throw error(
                        "a high surrogate \\u\(String(scalar, radix: 16)) is not followed by a low one", at: offset)
                }
                let low = try hex4(at: next + 2)
                guard low >= 0xDC00 && low < 0xE000 else {
                    throw error("a high surrogate is followed by \\u\(String(low, radix: 16))", at: next)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                next += 6
            } else if scalar >= 0xDC00 && scalar < 0xE000 {
                throw error("a lone low surrogate \\u\(String(scalar, radix: 16))", at: offset)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid code point", at: offset) }
            scratch.append(contentsOf: String(Character(unicode)).utf8)
            return next
        default:
            throw error("an invalid escape \\\(describe(offset + 1))", at: offset)
        }
        return offset + 2
    }

    func hex4(at offset: Int) throws(SerializationError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits", at: bytes.count) }
        var value: UInt32 = 0
        for index in offset..<(offset + 4) {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - 55
            default: throw error("a \\u escape needs four hex digits", at: index)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `offset`, or an ``SerializationError/invalidUTF8(_:)``.
    func validateUTF8(at offset: Int) throws(SerializationError) -> Int {
        guard let length = TextValidation.utf8SequenceLength(bytes, at: offset) else {
            throw .invalidUTF8(location(at: offset))
        }
        return length
    }

    /// A number per RFC 8259, exactly: integers that fit `Int` are ``KeyValue/int(_:)``, other
    /// numbers ``KeyValue/double(_:)`` when that is exact (the `Double`'s shortest text is the same
    /// number) and ``KeyValue/decimal(_:)`` when it is not.
    mutating func parseNumber() throws(SerializationError) -> KeyValue {
        let start = position
        var cursor = position
        var negative = false
        if bytes[cursor] == UInt8(ascii: "-") {
            negative = true
            cursor += 1
        }
        guard cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 else {
            throw error("a number needs digits", at: cursor)
        }
        var integer: Int = 0
        var overflow = false
        let digitsStart = cursor
        if bytes[cursor] == 48 {
            cursor += 1
            if cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 {
                throw error("a number may not start with 0", at: start)
            }
        } else {
            while cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 {
                let digit = Int(bytes[cursor] - 48)
                if !overflow {
                    let (times, o1) = integer.multipliedReportingOverflow(by: 10)
                    let (plus, o2) =
                        negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
                    if o1 || o2 { overflow = true } else { integer = plus }
                }
                cursor += 1
            }
        }
        var isInteger = true
        // Up to 15 digits and a small exponent: any Double holds the number exactly, so the
        // exactness check below is skipped (the common case: what people and writers type).
        var mantissaDigits = cursor - digitsStart
        var smallExponent = true
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
            isInteger = false
            cursor += 1
            let digits = cursor
            while cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 { cursor += 1 }
            guard cursor > digits else { throw error("a decimal point must be followed by digits", at: cursor) }
            mantissaDigits += cursor - digits
        }
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "e") || bytes[cursor] == UInt8(ascii: "E") {
            isInteger = false
            cursor += 1
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
                cursor += 1
            }
            let digits = cursor
            while cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 { cursor += 1 }
            guard cursor > digits else { throw error("an exponent must have digits", at: cursor) }
            // At most two digits, or three below 250: the value stays a normal Double.
            let count = cursor - digits
            smallExponent =
                count <= 2 || (count == 3 && (bytes[digits] < 50 || (bytes[digits] == 50 && bytes[digits + 1] < 53)))
        }
        position = cursor
        if isInteger && !overflow {
            // `-0` is the Double negative zero (as JSONDecoder reads it); it still decodes as Int 0.
            if negative && integer == 0 { return .double(-0.0) }
            return .int(integer)
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<cursor])
        let value =
            isInteger
            ? NumberText.bigInteger(text) : NumberText.fraction(text, fewDigits: mantissaDigits <= 15 && smallExponent)
        guard let value else {
            throw .numberOutOfRange(String(String(decoding: text, as: UTF8.self).prefix(40)), location(at: start))
        }
        return value
    }
}
