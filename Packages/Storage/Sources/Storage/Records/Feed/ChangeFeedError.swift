import Errors
import Foundation
import _KitSupport

/// Why a change feed could not be read: each case says what the client should do.
public enum ChangeFeedError: AppError, Equatable {
    /// The text is not a cursor this kit wrote (shown shortened and escaped).
    case malformedCursor(String, reason: String)
    /// The cursor is well formed but belongs to another feed: another table, another database,
    /// or this table before it was dropped and made again. Re-fetch everything (read from the
    /// start, `after: nil`).
    case foreignCursor(String, in: String)
    /// Changes after the cursor were compacted away (tombstones older than the retention were
    /// dropped), so reading on from it could miss a deletion. Re-fetch everything: read the feed
    /// from the start (`after: nil`) and replace the local copy.
    case cursorExpired(String, in: String)
    /// The cursor is past the feed's last change: the database was restored from an older
    /// backup, or the cursor was forged. Re-fetch everything.
    case cursorAhead(String, in: String)
    /// A page size below 1 was asked for.
    case invalidLimit(Int)
    /// The backend keeps no change feed (the file backend, or a custom backend).
    case unsupported(backend: String)
    /// The table has no change feed: open its backend with `changeFeed: true` once.
    case notEnabled(in: String)

    /// True when the client must drop its cursor and read the whole feed again.
    public var requiresFullRefetch: Bool {
        switch self {
        case .foreignCursor, .cursorExpired, .cursorAhead: true
        default: false
        }
    }

    /// A sentence naming the problem and what to do.
    public var message: String {
        switch self {
        case .malformedCursor(let text, let reason):
            "The change cursor \(UntrustedText.shown(text)) is malformed: \(reason)."
        case .foreignCursor(let text, let feed):
            "The change cursor \(UntrustedText.shown(text)) belongs to another change feed than \(feed); "
                + "fetch every record again, reading the feed from the start."
        case .cursorExpired(let text, let feed):
            "The change cursor \(UntrustedText.shown(text)) is older than the changes \(feed) keeps; "
                + "fetch every record again, reading the feed from the start."
        case .cursorAhead(let text, let feed):
            "The change cursor \(UntrustedText.shown(text)) is past the last change of \(feed) (was the database "
                + "restored?); fetch every record again, reading the feed from the start."
        case .invalidLimit(let limit):
            "A change page must hold at least one change; \(limit) was asked for."
        case .unsupported(let backend):
            "The record backend \(backend) keeps no change feed; use SQLite or PostgreSQL."
        case .notEnabled(let feed):
            "\(feed) has no change feed; open its backend with changeFeed: true."
        }
    }
}
