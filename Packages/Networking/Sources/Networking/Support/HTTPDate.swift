import Foundation

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate every sender should use, and the obsolete
/// RFC 850 and asctime forms a recipient must still read.
enum HTTPDate {
    /// The date `text` names, or nil when it is in none of the three forms.
    ///
    /// Formatters are made per call (it runs once per download response, not per chunk):
    /// a shared `DateFormatter` is not `Sendable`.
    static func parse(_ text: String) -> Date? {
        let trimmed = String(ASCII.trimmingWhitespace(text))
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }
}
