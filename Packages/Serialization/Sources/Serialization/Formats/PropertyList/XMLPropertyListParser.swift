import Foundation

/// Reads an XML property list into a ``KeyValue``: a small, strict, bounded reader for the
/// plist vocabulary (no external entities, no DTD processing), reporting line and column.
struct XMLPropertyListParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var position = 0
    var depth = 0
    var path: [KeyValuePath.Component] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// A start or empty-element tag.
    struct Tag {
        var name: String
        var isEmpty: Bool
        var offset: Int
    }

    mutating func parseDocument() throws(SerializationError) -> KeyValue {
        if let invalid = TextValidation.firstInvalidUTF8(bytes) { throw .invalidUTF8(location(at: invalid)) }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        let tag = try nextTag()
        let value: KeyValue
        if tag.name == "plist" {
            if tag.isEmpty { throw error("the plist element is empty", at: tag.offset) }
            value = try parseValue(try nextTag())
            let end = try nextTag(allowClosing: true)
            guard end.name == "/plist" else { throw error("expected </plist> but found <\(end.name)>", at: end.offset) }
        } else {
            value = try parseValue(tag)
        }
        try skipMisc()
        guard position == bytes.count else { throw error("unexpected content after the value") }
        return value
    }

    // MARK: Errors

    func location(at offset: Int) -> SerializationError.Location {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return SerializationError.Location(
            format: "XML property list", keyPath: KeyValuePath(path), line: line, column: end - lineStart + 1,
            offset: offset)
    }

    func error(_ reason: String, at offset: Int? = nil) -> SerializationError {
        let offset = offset ?? position
        if offset >= bytes.count {
            return .malformed("the data ends too early (truncated?); \(reason)", location(at: offset))
        }
        return .malformed(reason, location(at: offset))
    }

    // MARK: Markup

    func starts(with text: StaticString, at offset: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        let pointer = text.utf8Start
        for index in 0..<count where bytes[offset + index] != pointer[index] { return false }
        return true
    }

    mutating func skip(past terminator: StaticString, what: String) throws(SerializationError) {
        let start = position
        while position < bytes.count {
            if starts(with: terminator, at: position) {
                position += terminator.utf8CodeUnitCount
                return
            }
            position += 1
        }
        throw error("\(what) is not closed", at: start)
    }

    /// Skips whitespace, comments, processing instructions and the DOCTYPE.
    mutating func skipMisc() throws(SerializationError) {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            case UInt8(ascii: "<"):
                if starts(with: "<!--", at: position) {
                    try skip(past: "-->", what: "a comment")
                } else if starts(with: "<?", at: position) {
                    try skip(past: "?>", what: "a processing instruction")
                } else if starts(with: "<!DOCTYPE", at: position) {
                    let start = position
                    while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
                        if bytes[position] == UInt8(ascii: "[") {
                            throw error("a DOCTYPE with an internal subset is not supported", at: start)
                        }
                        position += 1
                    }
                    guard position < bytes.count else { throw error("the DOCTYPE is not closed", at: start) }
                    position += 1
                } else {
                    return
                }
            default: return
            }
        }
    }

    /// The next tag; closing tags are named with a leading slash.
    mutating func nextTag(allowClosing: Bool = false) throws(SerializationError) -> Tag {
        try skipMisc()
        let start = position
        guard position < bytes.count else { throw error("expected an element") }
        guard bytes[position] == UInt8(ascii: "<") else { throw error("expected an element but found text") }
        position += 1
        var closing = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "/") {
            closing = true
            position += 1
        }
        let nameStart = position
        while position < bytes.count {
            let byte = bytes[position]
            let isNameByte =
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
            guard isNameByte else { break }
            position += 1
        }
        guard position > nameStart else { throw error("expected an element name", at: start) }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<position]), as: UTF8.self)
        var quote: UInt8?
        while position < bytes.count {
            let byte = bytes[position]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                position += 1
                let isEmpty = position >= 2 && bytes[position - 2] == UInt8(ascii: "/")
                if closing && !allowClosing { throw error("unexpected </\(name)>", at: start) }
                return Tag(name: closing ? "/" + name : name, isEmpty: isEmpty, offset: start)
            } else if byte == UInt8(ascii: "<") {
                break
            }
            position += 1
        }
        throw error("the tag <\(name)> is not closed", at: start)
    }
}
