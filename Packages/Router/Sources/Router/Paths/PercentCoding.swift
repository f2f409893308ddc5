/// Percent-decoding of path segments and query items, and percent-encoding for reverse routing.
///
/// Decoding happens exactly once per segment, after the path is split on `/`: `%2F` is a
/// slash inside one segment, never a separator; `%252E` decodes to `%2E` and stays that.
enum PercentCoding {
    /// The outcome of decoding one piece of text.
    enum Decoded {
        case text(String)
        /// An invalid escape or escapes that do not form UTF-8, at this UTF-8 offset in the piece.
        case invalid(offset: Int)
    }

    /// Decodes `%XX` escapes; `plusIsSpace` for query items (`application/x-www-form-urlencoded`).
    static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String? {
        if case .text(let value) = decodeReporting(text, plusIsSpace: plusIsSpace) { return value }
        return nil
    }

    /// Decodes `%XX` escapes, saying where the first invalid one is.
    static func decodeReporting(_ text: Substring, plusIsSpace: Bool = false) -> Decoded {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode($0, plusIsSpace: plusIsSpace) }) {
            return decoded
        }
        return Array(text.utf8).withUnsafeBufferPointer { decode($0, plusIsSpace: plusIsSpace) }
    }

    /// Decodes `%XX` escapes in UTF-8 bytes, saying where the first invalid one is.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool = false) -> Decoded {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, bytes.count)) { output -> Decoded in
            var index = 0
            var count = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                        let low = hexValue(bytes[index + 2])
                    else { return .invalid(offset: index) }
                    output[count] = high << 4 | low
                    index += 3
                } else {
                    output[count] = plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte
                    index += 1
                }
                count += 1
            }
            let decodedBytes = UnsafeBufferPointer(rebasing: output[..<count])
            let decoded = String(decoding: decodedBytes, as: UTF8.self)
            // Decoding repairs invalid UTF-8 with U+FFFD; a repaired string differs from the bytes.
            guard decoded.utf8.elementsEqual(decodedBytes) else { return .invalid(offset: 0) }
            return .text(decoded)
        }
    }

    /// The value of an ASCII hex digit.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Encodes one segment: everything but RFC 3986 `pchar` characters (and `:`/`*`, which
    /// mean something in patterns) is escaped, so the result never contains `/`, `?`, `#` or `%`
    /// except as escapes.
    static func encodeSegment(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if isUnescaped(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0xF)]))
            }
        }
        return result
    }

    private static func isUnescaped(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._~!$&'()+,;=@".utf8.contains(byte)
        }
    }
}
