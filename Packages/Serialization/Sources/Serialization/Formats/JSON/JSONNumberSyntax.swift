/// The syntax of a JSON number (RFC 8259), scanned once for both JSON readers: the full parser
/// turns it into a ``KeyValue`` and names what is wrong; the fast reader locates it and leaves
/// anything unusual to the full parser.
struct JSONNumberSyntax {
    /// What is wrong with a number, and the offset it is wrong at.
    enum Failure: Error {
        case noDigits(at: Int)
        case leadingZero(at: Int)
        case noFractionDigits(at: Int)
        case noExponentDigits(at: Int)
    }

    /// The offset just past the number.
    var end: Int
    /// Whether it has neither a fraction nor an exponent.
    var isInteger: Bool
    /// Whether it starts with `-`.
    var isNegative: Bool
    /// The digits before and after the point.
    var mantissaDigits: Int
    /// The digits of the exponent (0 without one).
    var exponentDigits: Int
    /// The offset of the exponent's first digit (`end` without one).
    var exponentStart: Int
    /// For an integer read with `readsInteger`: its value, unless it overflows `Int` (then ``overflows``).
    var integer: Int
    /// Whether the integer part is outside `Int` (only worked out with `readsInteger`).
    var overflows: Bool

    /// Scans the number starting at `start` (a `-` or a digit); with `readsInteger`, also works
    /// out the value of its integer part.
    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, readsInteger: Bool) throws(Failure) {
        var cursor = start
        isNegative = bytes[cursor] == UInt8(ascii: "-")
        if isNegative { cursor += 1 }
        guard cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 else { throw .noDigits(at: cursor) }
        let digitsStart = cursor
        integer = 0
        overflows = false
        if bytes[cursor] == 48 {
            cursor += 1
            if cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 { throw .leadingZero(at: start) }
        } else {
            while cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 {
                let digit = Int(bytes[cursor] - 48)
                if readsInteger && !overflows {
                    let (times, o1) = integer.multipliedReportingOverflow(by: 10)
                    let (plus, o2) =
                        isNegative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
                    if o1 || o2 { overflows = true } else { integer = plus }
                }
                cursor += 1
            }
        }
        isInteger = true
        mantissaDigits = cursor - digitsStart
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
            isInteger = false
            cursor += 1
            let digits = cursor
            while cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 { cursor += 1 }
            guard cursor > digits else { throw .noFractionDigits(at: cursor) }
            mantissaDigits += cursor - digits
        }
        exponentDigits = 0
        exponentStart = cursor
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "e") || bytes[cursor] == UInt8(ascii: "E") {
            isInteger = false
            cursor += 1
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
                cursor += 1
            }
            exponentStart = cursor
            while cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 { cursor += 1 }
            guard cursor > exponentStart else { throw .noExponentDigits(at: cursor) }
            exponentDigits = cursor - exponentStart
        }
        end = cursor
    }
}
