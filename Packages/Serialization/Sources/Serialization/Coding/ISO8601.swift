import Foundation

/// Fast ISO 8601 formatting and parsing in UTC, without Foundation's formatters.
enum ISO8601 {
    /// `2024-05-06T07:08:09Z`, or `2024-05-06T07:08:09.125Z` when there are fractional seconds
    /// (up to microseconds, trailing zeros trimmed).
    /// The text of `date`, or nil when its year is outside 1…9999 (which ISO 8601's four digits
    /// cannot spell).
    static func string(from date: Date) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(27)
        guard write(date, into: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The seconds since 1970 of 0001-01-01T00:00:00Z and of 10000-01-01T00:00:00Z.
    static let representable: Range<Double> = -62_135_596_800..<253_402_300_800

    /// Appends the text of `date`; returns false (appending nothing) when its year is outside
    /// 1…9999, which four digits cannot spell: a writer throws rather than write another date.
    @discardableResult
    static func write(_ date: Date, into bytes: inout [UInt8]) -> Bool {
        let interval = date.timeIntervalSince1970
        // Rounding to microseconds may carry into the next year; the check below sees that too.
        guard interval.isFinite, representable.contains(interval) else { return false }
        var seconds = interval.rounded(.down)
        var micros = Int(((interval - seconds) * 1_000_000).rounded())
        if micros >= 1_000_000 {
            micros -= 1_000_000
            seconds += 1
        }
        let total = Int(seconds)
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        guard (1...9999).contains(year) else { return false }
        func two(_ value: Int) {
            bytes.append(UInt8(48 + value / 10))
            bytes.append(UInt8(48 + value % 10))
        }
        two(year / 100)
        two(year % 100)
        bytes.append(UInt8(ascii: "-"))
        two(month)
        bytes.append(UInt8(ascii: "-"))
        two(day)
        bytes.append(UInt8(ascii: "T"))
        two(secondOfDay / 3600)
        bytes.append(UInt8(ascii: ":"))
        two(secondOfDay / 60 % 60)
        bytes.append(UInt8(ascii: ":"))
        two(secondOfDay % 60)
        if micros > 0 {
            bytes.append(UInt8(ascii: "."))
            var divisor = 100_000
            var rest = micros
            while rest > 0 {
                bytes.append(UInt8(48 + rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        bytes.append(UInt8(ascii: "Z"))
        return true
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`; nil when it is not one.
    static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var position = 0
        func number(_ digits: Int) -> Int? {
            guard position + digits <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<digits {
                let byte = bytes[position + offset]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            position += digits
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == character else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2), expect(UInt8(ascii: "T")) || expect(UInt8(ascii: "t")) || expect(UInt8(ascii: " ")),
            let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
            let second = number(2)
        else { return nil }
        guard year >= 1, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        var fraction = 0.0
        if expect(UInt8(ascii: ".")) || expect(UInt8(ascii: ",")) {
            var scale = 0.1
            var digits = 0
            while position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 {
                fraction += Double(bytes[position] - 48) * scale
                scale /= 10
                position += 1
                digits += 1
            }
            guard digits > 0 else { return nil }
        }
        var offset = 0
        if expect(UInt8(ascii: "Z")) || expect(UInt8(ascii: "z")) {
        } else if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
            let sign = bytes[position] == UInt8(ascii: "-") ? -1 : 1
            position += 1
            guard let hours = number(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            guard let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard position == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
