/// An sRGB colour that encodes as a hex string: `"#RRGGBB"`, or `"#RRGGBBAA"` when not opaque.
///
/// Decoding also accepts `"#RGB"`, `"#RGBA"` and the forms without `#`, in either case.
public struct HexColor: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8
    /// Alpha, 0–255 (255 is opaque).
    public var alpha: UInt8

    /// A colour from its components.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `"#RRGGBB"`, `"#RRGGBBAA"`, `"#RGB"` or `"#RGBA"`; nil when it is none of them.
    public init?(_ text: String) {
        var digits = Substring(text)
        if digits.first == "#" { digits = digits.dropFirst() }
        guard digits.allSatisfy(\.isHexDigit) else { return nil }
        var values = digits.compactMap { $0.hexDigitValue.map(UInt8.init) }
        switch values.count {
        case 3, 4: values = values.map { $0 << 4 | $0 }
        case 6, 8: values = stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
        default: return nil
        }
        self.init(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 255)
    }

    /// `"#RRGGBB"` or `"#RRGGBBAA"`, upper case.
    public var description: String {
        let components = alpha == 255 ? [red, green, blue] : [red, green, blue, alpha]
        let digits = Array("0123456789ABCDEF")
        return "#" + String(components.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    /// Reads a hex string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let color = HexColor(text) else {
            throw SerializationError.typeMismatch(
                expected: "a hex colour (#RRGGBB)", found: "\"\(text.prefix(20))\"",
                SerializationError.Location(keyPath: KeyValuePath(codingPath: decoder.codingPath)))
        }
        self = color
    }

    /// Writes ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
