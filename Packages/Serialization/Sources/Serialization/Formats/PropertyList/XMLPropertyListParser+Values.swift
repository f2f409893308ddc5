import Foundation

extension XMLPropertyListParser {
    mutating func parseValue(_ tag: Tag) throws(SerializationError) -> KeyValue {
        switch tag.name {
        case "dict": return try parseDictionary(tag)
        case "array": return try parseArray(tag)
        case "true", "false":
            if !tag.isEmpty {
                let text = try parseText(closing: tag.name)
                guard text.allSatisfy(\.isWhitespace) else { throw error("<\(tag.name)> holds text", at: tag.offset) }
            }
            return .bool(tag.name == "true")
        case "string":
            if tag.isEmpty { return .string("") }
            // Only the literal `$null` is null (as PropertyListEncoder writes nil); the same text
            // spelled with a reference (`&#36;null`, as our writer spells a "$null" string) is data.
            let isLiteralNull = starts(with: "$null</string>", at: position)
            let text = try parseText(closing: "string")
            return isLiteralNull ? .null : .string(text)
        case "integer":
            let text = try trimmedText(tag)
            return try integer(text, at: tag.offset)
        case "real":
            let text = try trimmedText(tag)
            switch text.lowercased() {
            case "nan": return .double(.nan)
            case "inf", "+inf", "infinity", "+infinity": return .double(.infinity)
            case "-inf", "-infinity": return .double(-.infinity)
            default:
                // Exactly: a Double when that is the number written, else a Decimal.
                guard let number = NumberText.value(text) else {
                    if Double(text) != nil {
                        throw .numberOutOfRange(String(text.prefix(40)), location(at: tag.offset))
                    }
                    throw error("<real> holds \"\(text.prefix(40))\"", at: tag.offset)
                }
                if case .int(let integer) = number { return .double(Double(integer)) }
                return number
            }
        case "date":
            let text = try trimmedText(tag)
            guard let date = ISO8601.date(from: text) else {
                throw error("<date> holds \"\(text.prefix(40))\", not an ISO 8601 date", at: tag.offset)
            }
            return .date(date)
        case "data":
            let text = tag.isEmpty ? "" : try parseText(closing: "data")
            // Writers wrap base64 in newlines and tabs; empty data is only whitespace, which
            // corelibs Foundation's base64 decoder refuses.
            let base64 = text.filter { !$0.isWhitespace }
            if base64.isEmpty { return .data(Data()) }
            guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
                throw error("<data> does not hold base64", at: tag.offset)
            }
            return .data(data)
        default:
            throw error("unexpected element <\(tag.name)>", at: tag.offset)
        }
    }

    mutating func trimmedText(_ tag: Tag) throws(SerializationError) -> String {
        guard !tag.isEmpty else { throw error("<\(tag.name)/> is empty", at: tag.offset) }
        let text = try parseText(closing: tag.name)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// An `<integer>`'s value: ``KeyValue/int(_:)`` when it fits `Int`, else an exact
    /// ``KeyValue/decimal(_:)`` (up to 38 digits).
    func integer(_ text: String, at offset: Int) throws(SerializationError) -> KeyValue {
        var digits = Substring(text)
        var negative = false
        if digits.first == "-" || digits.first == "+" {
            negative = digits.first == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit && (radix == 16 || $0.isNumber) }) else {
            throw error("<integer> holds \"\(text.prefix(40))\"", at: offset)
        }
        if let magnitude = UInt64(digits, radix: radix) {
            if negative, magnitude <= UInt64(Int64.max) + 1 {
                return .int(magnitude == UInt64(Int64.max) + 1 ? Int(Int64.min) : -Int(magnitude))
            }
            if !negative, let value = Int(exactly: magnitude) { return .int(value) }
            if radix == 16 && negative { throw .numberOutOfRange(String(text.prefix(40)), location(at: offset)) }
            if radix == 16 { return .decimal(Decimal(magnitude)) }
        }
        guard radix == 10 else { throw .numberOutOfRange(String(text.prefix(40)), location(at: offset)) }
        var decimalText = (negative ? "-" : "") + digits
        guard let decimal = decimalText.withUTF8({ NumberText.exactDecimal($0) }) else {
            throw .numberOutOfRange(String(text.prefix(40)), location(at: offset))
        }
        return .decimal(decimal)
    }

    mutating func enter(_ tag: Tag) throws(SerializationError) {
        depth += 1
        if depth > maximumDepth { throw .tooDeep(limit: maximumDepth, location(at: tag.offset)) }
    }

    mutating func parseArray(_ tag: Tag) throws(SerializationError) -> KeyValue {
        try enter(tag)
        if tag.isEmpty {
            // An empty array counts as a level, as the writers and the other readers count it.
            depth -= 1
            return .array([])
        }
        var elements: [KeyValue] = []
        path.append(.index(0))
        while true {
            let next = try nextTag(allowClosing: true)
            if next.name == "/array" { break }
            path[path.count - 1] = .index(elements.count)
            elements.append(try parseValue(next))
        }
        path.removeLast()
        depth -= 1
        return .array(elements)
    }

    mutating func parseDictionary(_ tag: Tag) throws(SerializationError) -> KeyValue {
        try enter(tag)
        if tag.isEmpty {
            depth -= 1
            return .object([:])
        }
        var object = KeyValueObject()
        while true {
            let next = try nextTag(allowClosing: true)
            if next.name == "/dict" { break }
            guard next.name == "key" else {
                throw error("expected <key> in <dict> but found <\(next.name)>", at: next.offset)
            }
            let key = next.isEmpty ? "" : try parseText(closing: "key")
            guard object.position(of: key) == nil else { throw .duplicateKey(key, location(at: next.offset)) }
            path.append(.key(key))
            let valueTag = try nextTag()
            object[key] = try parseValue(valueTag)
            path.removeLast()
        }
        depth -= 1
        return .object(object)
    }

    /// Character data up to `</name>`, with entities and CDATA decoded and comments dropped.
    mutating func parseText(closing name: String) throws(SerializationError) -> String {
        var text: [UInt8] = []
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") {
                if starts(with: "<![CDATA[", at: position) {
                    position += 9
                    let contentStart = position
                    try skip(past: "]]>", what: "a CDATA section")
                    text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<(position - 3)]))
                    continue
                }
                if starts(with: "<!--", at: position) {
                    try skip(past: "-->", what: "a comment")
                    continue
                }
                let tag = try nextTag(allowClosing: true)
                guard tag.name == "/" + name else {
                    throw error("expected </\(name)> but found <\(tag.name)>", at: tag.offset)
                }
                return String(decoding: text, as: UTF8.self)
            }
            if byte == UInt8(ascii: "&") {
                try parseEntity(into: &text)
                continue
            }
            text.append(byte)
            position += 1
        }
        throw error("<\(name)> is not closed", at: start)
    }

    mutating func parseEntity(into text: inout [UInt8]) throws(SerializationError) {
        let start = position
        var end = position + 1
        while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw error("an entity is not closed", at: start)
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end]), as: UTF8.self)
        position = end + 1
        switch name {
        case "amp": text.append(UInt8(ascii: "&"))
        case "lt": text.append(UInt8(ascii: "<"))
        case "gt": text.append(UInt8(ascii: ">"))
        case "quot": text.append(UInt8(ascii: "\""))
        case "apos": text.append(UInt8(ascii: "'"))
        default:
            var code: UInt32?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                code = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                code = UInt32(name.dropFirst(), radix: 10)
            }
            guard let code, let scalar = Unicode.Scalar(code), code != 0 else {
                throw error("unknown entity &\(name);", at: start)
            }
            text.append(contentsOf: String(Character(scalar)).utf8)
        }
    }
}
