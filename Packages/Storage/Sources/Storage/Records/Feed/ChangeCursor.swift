import Foundation

/// A position in one record table's change feed: "every change up to here has been read".
///
/// A cursor is opaque text (`c1.<feed>.<position>`) that a client stores and sends back, for
/// example in `GET /notes/changes?after=…`. It names the feed it came from — a random id the
/// table's feed got when it was created — so a cursor from another table, another database, or a
/// table that was dropped and made again is refused with ``ChangeFeedError/foreignCursor(_:in:)``
/// instead of silently reading the wrong positions.
///
/// ```swift
/// let saved = try ChangeCursor(storedText)        // throws ChangeFeedError.malformedCursor
/// let page = try await notes.changes(after: saved, limit: 200)
/// ```
public struct ChangeCursor: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The feed's id: 32 lowercase hexadecimal digits.
    package let feed: String
    /// The position of the last change read; 0 before the first.
    package let position: Int64

    /// The longest text a cursor can have (`c1.`, 32 digits, `.`, 19 digits): anything longer is
    /// refused before it is looked at.
    static let maximumLength = 55

    /// The cursor at `position` of the feed `feed`.
    package init(feed: String, position: Int64) {
        self.feed = feed
        self.position = position
    }

    /// The cursor written as `text` (its ``description``).
    ///
    /// - Throws: ``ChangeFeedError/malformedCursor(_:reason:)`` for anything that is not a cursor
    ///   this kit wrote: empty, too long, another version, a feed id that is not 32 hex digits, a
    ///   position that is not a non-negative decimal number.
    public init(_ text: String) throws(ChangeFeedError) {
        guard !text.isEmpty else { throw .malformedCursor(text, reason: "it is empty") }
        guard text.utf8.count <= Self.maximumLength else {
            throw .malformedCursor(text, reason: "it is longer than \(Self.maximumLength) bytes")
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "c1" else {
            throw .malformedCursor(text, reason: "it is not of the form c1.<feed>.<position>")
        }
        let hex = "0123456789abcdef".utf8
        guard parts[1].utf8.count == 32, parts[1].utf8.allSatisfy({ hex.contains($0) }) else {
            throw .malformedCursor(text, reason: "its feed id is not 32 lowercase hexadecimal digits")
        }
        let digits = parts[2].utf8
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            digits.count == 1 || digits.first != UInt8(ascii: "0"), let position = Int64(parts[2])
        else {
            throw .malformedCursor(text, reason: "its position is not a non-negative decimal number")
        }
        self.init(feed: String(parts[1]), position: position)
    }

    /// The cursor as text, to store or send: `c1.<feed>.<position>`.
    public var description: String { "c1.\(feed).\(position)" }

    /// Reads a cursor from its text; a malformed one fails decoding with the
    /// ``ChangeFeedError`` as the underlying error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(text)
        } catch {
            let failure: any Error = error
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: (failure as? ChangeFeedError)?.message ?? "\(failure)", underlyingError: failure))
        }
    }

    /// Writes the cursor as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// A new random feed id.
    package static func newFeedID() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
