import Foundation

/// A one-pass, bounded JSON parser from UTF-8 bytes to ``KeyValue``.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    let allowsDuplicateKeys: Bool
    var position = 0
    var depth = 0
    var path: [KeyValuePath.Component] = []
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, allowsDuplicateKeys: Bool) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.allowsDuplicateKeys = allowsDuplicateKeys
    }

    mutating func parseDocument() throws(SerializationError) -> KeyValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        guard position < bytes.count else { throw error("the document is empty") }
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else { throw error("unexpected \(describe(position)) after the value") }
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
            format: "JSON", keyPath: KeyValuePath(path), line: line, column: end - lineStart + 1, offset: offset)
    }

    func error(_ reason: String, at offset: Int? = nil) -> SerializationError {
        let offset = offset ?? position
        if offset >= bytes.count {
            return .malformed("the data ends too early (truncated?); \(reason)", location(at: bytes.count))
        }
        return .malformed(reason, location(at: offset))
    }

    func describe(_ offset: Int) -> String {
        guard offset < bytes.count else { return "end of data" }
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    // MARK: Values

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(SerializationError) -> KeyValue {
        guard position < bytes.count else { throw error("expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("expected a value but found \(describe(position))")
        }
    }

    mutating func parseLiteral(_ word: StaticString, _ value: KeyValue) throws(SerializationError) -> KeyValue {
        let count = word.utf8CodeUnitCount
        let pointer = word.utf8Start
        for offset in 0..<count where position + offset >= bytes.count || bytes[position + offset] != pointer[offset] {
            throw error("expected \(word)", at: position + offset >= bytes.count ? bytes.count : position)
        }
        position += count
        return value
    }

    mutating func enter() throws(SerializationError) {
        depth += 1
        if depth > maximumDepth { throw .tooDeep(limit: maximumDepth, location(at: position)) }
    }

    mutating func parseArray() throws(SerializationError) -> KeyValue {
        try enter()
        position += 1
        var elements: [KeyValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        path.append(.index(0))
        while true {
            path[path.count - 1] = .index(elements.count)
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard position < bytes.count else { throw error("expected ',' or ']'") }
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "]") { break }
            throw error("expected ',' or ']' but found \(describe(position - 1))", at: position - 1)
        }
        path.removeLast()
        depth -= 1
        return .array(elements)
    }

    mutating func parseObject() throws(SerializationError) -> KeyValue {
        try enter()
        position += 1
        var entries: [KeyValueObject.Element] = []
        var index: [String: Int]?
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(KeyValueObject(uniqueEntries: entries))
        }
        path.append(.key(""))
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a key in quotes but found \(describe(position))")
            }
            let keyOffset = position
            let key = try parseString()
            path[path.count - 1] = .key(key)
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected ':' after key \"\(key)\" but found \(describe(position))")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue()
            // Duplicate check: linear for small objects, hashed once they grow.
            var existing: Int?
            if let index {
                existing = index[key]
            } else {
                for offset in entries.indices where entries[offset].key == key {
                    existing = offset
                    break
                }
            }
            if let existing {
                guard allowsDuplicateKeys else { throw .duplicateKey(key, location(at: keyOffset)) }
                entries[existing].value = value
            } else {
                entries.append((key, value))
                if index != nil {
                    index?[key] = entries.count - 1
                } else if entries.count > KeyValueObject.indexThreshold {
                    var built = [String: Int](minimumCapacity: entries.count * 2)
                    for (offset, entry) in entries.enumerated() { built[entry.key] = offset }
                    index = built
                }
            }
            skipWhitespace()
            guard position < bytes.count else { throw error("expected ',' or '}'") }
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "}") { break }
            throw error("expected ',' or '}' but found \(describe(position - 1))", at: position - 1)
        }
        path.removeLast()
        depth -= 1
        var object = KeyValueObject()
        object.entries = entries
        object.index = index
        return .object(object)
    }
}
