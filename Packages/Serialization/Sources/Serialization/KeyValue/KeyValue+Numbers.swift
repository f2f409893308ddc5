import Foundation

extension KeyValue {
    /// The tree value for `decimal` in canonical form: ``int(_:)`` when it is an integer that
    /// fits `Int`, ``double(_:)`` when a `Double`'s shortest text is the same number (`0.1`,
    /// `1e-7`), and ``decimal(_:)`` otherwise (more digits than a `Double` holds, or an integer
    /// beyond `Int`). The readers return numbers in this form, so a canonical tree round-trips.
    public static func number(_ decimal: Decimal) -> KeyValue {
        guard !decimal.isNaN else { return .decimal(decimal) }
        let text = decimal.description
        if !text.utf8.contains(UInt8(ascii: ".")) {
            if let integer = Int(text) { return .int(integer) }
            return .decimal(decimal)
        }
        guard let double = Double(text), double.isFinite else { return .decimal(decimal) }
        let isShortest = Array(text.utf8).withUnsafeBufferPointer { NumberText.isShortest(double, of: $0) }
        return isShortest ? .double(double) : .decimal(decimal)
    }
}

extension KeyValue {
    /// The number `text` spells (`-12`, `0.1`, `1e-7`, `18446744073709551615`), exactly, as the
    /// built-in readers read numbers: ``int(_:)`` for an integer that fits `Int`, ``double(_:)``
    /// when a `Double`'s shortest text is that number, else ``decimal(_:)`` (nearest
    /// ``double(_:)`` beyond `Decimal`'s 38 digits). Nil when `text` is not a decimal number or
    /// not finite. For your own text formats, so they read numbers as the built-in ones do.
    public init?(numberText text: String) {
        guard let value = NumberText.value(text) else { return nil }
        self = value
    }

    /// The text a text format writes for `decimal`, so that ``init(numberText:)`` (and so every
    /// built-in reader) reads it back as `.decimal(decimal)`: its digits, with `.0` after an
    /// integer that fits `Int` where that keeps it a decimal (`3183300714855019877.0`; without
    /// it the digits read as ``int(_:)``). A decimal no text reads back as itself (`.decimal(4)`,
    /// which reads as an `Int` or a `Double`) gets its plain digits.
    public static func numberText(_ decimal: Decimal) -> String {
        let text = decimal.description
        guard !text.utf8.contains(UInt8(ascii: ".")), Int(text) != nil else { return text }
        let fraction = text + ".0"
        return NumberText.value(fraction) == .decimal(decimal) ? fraction : text
    }
}

/// Decimal number text, as the text formats read and write it: which tree value a number's text
/// is, exactly.
enum NumberText {
    /// The POSIX locale, so `Decimal(string:)` reads `.` as the decimal point everywhere.
    static let posix = Locale(identifier: "en_US_POSIX")

    /// Where a number's significant digits are in its text, and its sign and decimal exponent:
    /// the value is 0.d₁d₂… × 10^exponent, d₁ at `first` and the last non-zero digit at `last`
    /// (a `.` between them is skipped). Found without allocating: the exactness checks run for
    /// every long number a reader meets.
    struct Digits {
        var negative: Bool
        var first: Int
        var last: Int
        var exponent: Int
        var isZero: Bool { first < 0 }
    }

    /// The digits of `[-+]digits[.digits][(e|E)[-+]digits]`, or nil for other text.
    static func digits(_ bytes: UnsafeBufferPointer<UInt8>) -> Digits? {
        var position = 0
        var negative = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
            negative = bytes[position] == UInt8(ascii: "-")
            position += 1
        }
        var first = -1
        var last = -1
        var point = -1
        var integerDigits = 0  // digits from the first significant one up to the point
        var leadingFractionZeros = 0  // zeros after the point before the first significant digit
        var anyDigit = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte >= 48 && byte <= 57 {
                anyDigit = true
                if byte != 48 {
                    if first < 0 { first = position }
                    last = position
                }
                if point < 0 {
                    if first >= 0 { integerDigits += 1 }
                } else if first < 0 {
                    leadingFractionZeros += 1
                }
            } else if byte == UInt8(ascii: "."), point < 0 {
                point = position
            } else {
                break
            }
            position += 1
        }
        guard anyDigit else { return nil }
        var exponent = first < 0 ? 0 : (integerDigits > 0 ? integerDigits : -leadingFractionZeros)
        if position < bytes.count {
            guard bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") else { return nil }
            position += 1
            var exponentNegative = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            var written = 0
            var exponentDigits = 0
            while position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 {
                written = min(written * 10 + Int(bytes[position] - 48), 1_000_000)
                exponentDigits += 1
                position += 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent += exponentNegative ? -written : written
        }
        guard position == bytes.count else { return nil }
        return Digits(negative: negative && first >= 0, first: first, last: last, exponent: first < 0 ? 0 : exponent)
    }

    /// Whether two number texts spell the same number (`1.50` and `15e-1`), without allocating.
    static func sameNumber(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let left = digits(a), let right = digits(b) else { return false }
        guard left.isZero == right.isZero else { return false }
        if left.isZero { return true }
        guard left.negative == right.negative, left.exponent == right.exponent else { return false }
        var i = left.first
        var j = right.first
        while true {
            if i <= left.last, a[i] == UInt8(ascii: ".") { i += 1 }
            if j <= right.last, b[j] == UInt8(ascii: ".") { j += 1 }
            let leftDone = i > left.last
            let rightDone = j > right.last
            if leftDone || rightDone { return leftDone && rightDone }
            guard a[i] == b[j] else { return false }
            i += 1
            j += 1
        }
    }

    /// Whether `double`'s shortest text (what the writers print) is the number `text` spells.
    static func isShortest(_ double: Double, of text: UnsafeBufferPointer<UInt8>) -> Bool {
        var shortest = double.description
        return shortest.withUTF8 { sameNumber($0, text) }
    }

    /// The `Decimal` that is exactly the number `text` spells, or nil when a `Decimal` cannot
    /// hold it (more than 38 digits, or an exponent out of its range).
    static func exactDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Decimal? {
        let string = String(decoding: text, as: UTF8.self)
        guard let decimal = Decimal(string: string, locale: posix), !decimal.isNaN else { return nil }
        var written = decimal.description
        guard written.withUTF8({ sameNumber($0, text) }) else { return nil }
        return decimal
    }

    /// The tree value of an integer's text that does not fit `Int`: exact as a ``KeyValue/decimal(_:)``
    /// when a `Decimal` holds it, else the nearest `Double`; nil when it is beyond `Double` too.
    static func bigInteger(_ text: UnsafeBufferPointer<UInt8>) -> KeyValue? {
        if let decimal = exactDecimal(text) { return .decimal(decimal) }
        guard let double = Double(String(decoding: text, as: UTF8.self)), double.isFinite else { return nil }
        return .double(double)
    }

    /// The tree value of a number's text with a fraction or an exponent: a ``KeyValue/double(_:)``
    /// when the `Double`'s shortest text is this number, else an exact ``KeyValue/decimal(_:)``,
    /// else the nearest `Double`; nil when it is not finite.
    ///
    /// `fewDigits` says the text has at most 15 digits and a small exponent, which any `Double`
    /// holds exactly, so the check is skipped on the common path.
    static func fraction(_ text: UnsafeBufferPointer<UInt8>, fewDigits: Bool) -> KeyValue? {
        guard let double = Double(String(decoding: text, as: UTF8.self)), double.isFinite else { return nil }
        if fewDigits || double == 0 || isShortest(double, of: text) { return .double(double) }
        if let decimal = exactDecimal(text) { return .decimal(decimal) }
        return .double(double)
    }

    /// Whether `text` has at most 15 digits before any exponent and an exponent below 250: a
    /// number any `Double` holds exactly, so no exactness check is needed.
    static func hasFewDigits(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var digits = 0
        var position = 0
        while position < text.count, text[position] | 0x20 != UInt8(ascii: "e") {
            if text[position] >= 48 && text[position] <= 57 { digits += 1 }
            position += 1
        }
        guard digits <= 15 else { return false }
        var exponent = 0
        while position < text.count {
            let byte = text[position]
            if byte >= 48 && byte <= 57 { exponent = min(exponent * 10 + Int(byte - 48), 1000) }
            position += 1
        }
        return exponent < 250
    }

    /// The tree value of `text` read as a number (integer or not), or nil when it is not one.
    static func value(_ text: String) -> KeyValue? {
        var text = text
        return text.withUTF8 { utf8 -> KeyValue? in
            guard digits(utf8) != nil else { return nil }
            let isInteger = !utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
            if isInteger {
                if let integer = Int(String(decoding: utf8, as: UTF8.self)) { return .int(integer) }
                return bigInteger(utf8)
            }
            return fraction(utf8, fewDigits: hasFewDigits(utf8))
        }
    }

    /// `decimal`'s digits as a 128-bit two's complement integer (high and low words), or nil when
    /// it is not an integer or does not fit 128 signed bits.
    static func int128Words(_ decimal: Decimal) -> (high: UInt64, low: UInt64)? {
        let text = decimal.description
        var digits = Substring(text)
        var negative = false
        if digits.first == "-" {
            negative = true
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for byte in digits.utf8 {
            let (lowHigh, lowLow) = low.multipliedFullWidth(by: 10)
            let (newHigh, highOverflow) = high.multipliedReportingOverflow(by: 10)
            guard !highOverflow else { return nil }
            let (sumLow, carry) = lowLow.addingReportingOverflow(UInt64(byte - 48))
            let (sumHigh, overflow1) = newHigh.addingReportingOverflow(lowHigh)
            let (finalHigh, overflow2) = sumHigh.addingReportingOverflow(carry ? 1 : 0)
            guard !overflow1, !overflow2 else { return nil }
            high = finalHigh
            low = sumLow
        }
        // The magnitude must fit: below 2¹²⁷, or exactly 2¹²⁷ when negative.
        let limit: UInt64 = 1 << 63
        guard high < limit || (negative && high == limit && low == 0) else { return nil }
        if negative {
            low = ~low &+ 1
            high = ~high &+ (low == 0 ? 1 : 0)
        }
        return (high, low)
    }

    /// The decimal text of a 128-bit two's complement integer.
    static func text(int128High high: UInt64, low: UInt64) -> String {
        let negative = high >> 63 == 1
        var high = high
        var low = low
        if negative {
            low = ~low &+ 1
            high = ~high &+ (low == 0 ? 1 : 0)
        }
        let base: UInt64 = 10_000_000_000_000_000_000
        var chunks: [UInt64] = []
        repeat {
            let (quotientHigh, remainderHigh) = high.quotientAndRemainder(dividingBy: base)
            let (quotientLow, remainder) = base.dividingFullWidth((remainderHigh, low))
            chunks.append(remainder)
            high = quotientHigh
            low = quotientLow
        } while high != 0 || low != 0
        var result = negative ? "-" : ""
        result += String(chunks[chunks.count - 1])
        for chunk in chunks.dropLast().reversed() {
            let digits = String(chunk)
            result += String(repeating: "0", count: 19 - digits.count) + digits
        }
        return result
    }
}
