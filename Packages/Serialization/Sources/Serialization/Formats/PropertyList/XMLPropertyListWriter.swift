import Foundation

/// Writes a ``KeyValue`` as an XML property list, in Apple's layout (tabs, sorted keys).
struct XMLPropertyListWriter {
    var maximumDepth = KeyValue.defaultMaximumDepth
    var bytes: [UInt8] = []
    var path: [KeyValuePath.Component] = []

    /// The text property lists write for null.
    static let nullText = "$null"

    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    mutating func writeDocument(_ tree: KeyValue) throws {
        bytes.reserveCapacity(4096)
        append(Self.header)
        try write(tree, depth: 0)
        append("</plist>\n")
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func indent(_ depth: Int) {
        for _ in 0..<depth { bytes.append(0x09) }
    }

    mutating func escaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "&"): append("&amp;")
                case UInt8(ascii: "<"): append("&lt;")
                case UInt8(ascii: ">"): append("&gt;")
                default: bytes.append(byte)
                }
            }
        }
    }

    mutating func write(_ value: KeyValue, depth: Int) throws {
        indent(depth)
        switch value {
        case .null: append("<string>$null</string>\n")
        case .bool(let bool): append(bool ? "<true/>\n" : "<false/>\n")
        case .int(let number): append("<integer>\(number)</integer>\n")
        case .double(let number):
            let text: String
            if number.isNaN {
                text = "nan"
            } else if number.isInfinite {
                text = number < 0 ? "-inf" : "+inf"
            } else {
                text = number.description
            }
            append("<real>\(text)</real>\n")
        case .decimal(let number):
            guard !number.isNaN else { throw unsupported("the number NaN") }
            // Integers beyond Int as <integer> (Foundation writes UInt64 so); other decimals as a
            // <real> with all their digits, which this reader reads back exactly.
            let text = KeyValue.numberText(number)
            if text.utf8.contains(UInt8(ascii: ".")) {
                append("<real>\(text)</real>\n")
            } else {
                append("<integer>\(text)</integer>\n")
            }
        case .string(let string):
            // `<string>$null</string>` is how property lists spell null (PropertyListEncoder's
            // convention); a string that is "$null" gets its `$` as a character reference, which
            // every XML reader decodes to the same text but ours tells apart from null.
            if string.utf8.count == 5, string == Self.nullText {
                append("<string>&#36;null</string>\n")
            } else {
                append("<string>")
                escaped(string)
                append("</string>\n")
            }
        case .data(let data):
            append("<data>\n")
            let encoded = data.base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
            if !encoded.isEmpty {
                for line in encoded.split(separator: "\n") {
                    indent(depth)
                    append(String(line))
                    bytes.append(0x0A)
                }
            }
            indent(depth)
            append("</data>\n")
        case .date(let date):
            // Property lists carry whole seconds in their XML form.
            append("<date>")
            let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
            guard ISO8601.write(whole, into: &bytes) else {
                throw unsupported(
                    "the date \(date.timeIntervalSince1970)s after 1970, whose year is outside 1…9999, in ISO 8601")
            }
            append("</date>\n")
        case .array(let array):
            guard path.count < maximumDepth else { throw tooDeep() }
            if array.isEmpty {
                append("<array/>\n")
                return
            }
            append("<array>\n")
            for (position, element) in array.enumerated() {
                path.append(.index(position))
                try write(element, depth: depth + 1)
                path.removeLast()
            }
            indent(depth)
            append("</array>\n")
        case .object(let object):
            guard path.count < maximumDepth else { throw tooDeep() }
            if object.isEmpty {
                append("<dict/>\n")
                return
            }
            append("<dict>\n")
            for entry in JSONWriter.sorted(object.entries) {
                indent(depth + 1)
                append("<key>")
                escaped(entry.key)
                append("</key>\n")
                path.append(.key(entry.key))
                try write(entry.value, depth: depth + 1)
                path.removeLast()
            }
            indent(depth)
            append("</dict>\n")
        }
    }

    /// The error for a value property lists cannot hold, at the current key path.
    func unsupported(_ what: String) -> SerializationError {
        .unsupportedValue(what, SerializationError.Location(format: "XML property list", keyPath: KeyValuePath(path)))
    }

    /// The error for a container nested deeper than the limit, at the current key path.
    func tooDeep() -> SerializationError {
        .tooDeep(
            limit: maximumDepth,
            SerializationError.Location(format: "XML property list", keyPath: KeyValuePath(path)))
    }
}
