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
        if let byte = JSONEscape.byte(for: code) {
            scratch.append(byte)
            return offset + 2
        }
        switch code {
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
    }

    func hex4(at offset: Int) throws(SerializationError) -> UInt32 {
        if let value = TextValidation.hex4(bytes, at: offset) { return value }
        guard offset + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits", at: bytes.count) }
        let bad = (offset..<(offset + 4)).first { TextValidation.hexDigit(bytes[$0]) == nil } ?? offset
        throw error("a \\u escape needs four hex digits", at: bad)
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
        let number: JSONNumberSyntax
        do {
            number = try JSONNumberSyntax(bytes, at: start, readsInteger: true)
        } catch {
            switch error {
            case .noDigits(let offset): throw self.error("a number needs digits", at: offset)
            case .leadingZero(let offset): throw self.error("a number may not start with 0", at: offset)
            case .noFractionDigits(let offset):
                throw self.error("a decimal point must be followed by digits", at: offset)
            case .noExponentDigits(let offset): throw self.error("an exponent must have digits", at: offset)
            }
        }
        position = number.end
        if number.isInteger && !number.overflows {
            // `-0` is the Double negative zero (as JSONDecoder reads it); it still decodes as Int 0.
            if number.isNegative && number.integer == 0 { return .double(-0.0) }
            return .int(number.integer)
        }
        // Up to 15 digits and an exponent of at most two digits, or three below 250: any Double
        // holds the number exactly, so the exactness check is skipped (the common case: what
        // people and writers type).
        let exponent = number.exponentStart
        let smallExponent =
            number.exponentDigits <= 2
            || (number.exponentDigits == 3
                && (bytes[exponent] < 50 || (bytes[exponent] == 50 && bytes[exponent + 1] < 53)))
        let text = UnsafeBufferPointer(rebasing: bytes[start..<number.end])
        let value =
            number.isInteger
            ? NumberText.bigInteger(text)
            : NumberText.fraction(text, fewDigits: number.mantissaDigits <= 15 && smallExponent)
        guard let value else {
            throw .numberOutOfRange(String(String(decoding: text, as: UTF8.self).prefix(40)), location(at: start))
        }
        return value
    }
}
