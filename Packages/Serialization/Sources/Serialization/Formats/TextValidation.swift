/// Strict text checks shared by the readers (the standard library's validating initialisers
/// need newer OS versions than this package supports).
enum TextValidation {
    /// The length of the well-formed UTF-8 sequence starting at `offset`, or nil.
    static func utf8SequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
        let lead = bytes[offset]
        if lead < 0x80 { return 1 }
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upper = 0x9F
        case 0xF0:
            length = 4
            lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upper = 0x8F
        default: return nil
        }
        guard offset + length <= bytes.count else { return nil }
        let second = bytes[offset + 1]
        guard second >= lower && second <= upper else { return nil }
        for index in (offset + 2)..<(offset + length) where bytes[index] & 0xC0 != 0x80 { return nil }
        return length
    }

    /// The value of the four hex digits at `offset` (a `\u` escape's), or nil.
    static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in offset..<(offset + 4) {
            guard let digit = hexDigit(bytes[index]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The value of one hex digit, or nil.
    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - 55
        default: nil
        }
    }

    /// The offset of the first byte that is not valid UTF-8, or nil when all of it is.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var offset = 0
        while offset < bytes.count {
            if bytes[offset] < 0x80 {
                offset += 1
                continue
            }
            guard let length = utf8SequenceLength(bytes, at: offset) else { return offset }
            offset += length
        }
        return nil
    }

    /// A string from UTF-8 bytes, or nil when they are not valid UTF-8.
    static func string(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard firstInvalidUTF8(bytes) == nil else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A string from UTF-16 code units, or nil when a surrogate is unpaired.
    static func string(utf16 units: [UInt16]) -> String? {
        var index = 0
        while index < units.count {
            let unit = units[index]
            if unit >= 0xD800 && unit < 0xDC00 {
                guard index + 1 < units.count, units[index + 1] >= 0xDC00, units[index + 1] < 0xE000 else { return nil }
                index += 2
            } else if unit >= 0xDC00 && unit < 0xE000 {
                return nil
            } else {
                index += 1
            }
        }
        return String(decoding: units, as: UTF16.self)
    }
}
