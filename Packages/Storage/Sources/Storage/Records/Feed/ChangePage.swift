import Foundation

/// Limits shared by every change feed.
public enum ChangeFeed {
    /// The most changes one page holds; a larger `limit` is lowered to it (and the page says
    /// ``ChangePage/hasMore``), so one request can never make the server load a whole table.
    public static let maximumPageSize = 1_000
    /// The page size ``RecordStore/changes(after:limit:)`` uses when none is given.
    public static let defaultPageSize = 100
}

/// One change in a feed: the record as it is now, or a tombstone saying it was deleted.
///
/// The feed keeps one entry per record — its latest change — so a record changed ten times
/// since a client's cursor arrives once, as it is now.
public struct ChangeFeedEntry<Record: Sendable & Identifiable>: Sendable where Record.ID: Sendable {
    /// What happened to the record.
    public enum Change: Sendable {
        /// The record was inserted or updated; this is its stored value.
        case saved(Record)
        /// The record with this id was deleted.
        case deleted(Record.ID)
    }

    /// The change.
    public let change: Change
    /// The record's id as ``RecordID`` text (the table's primary key).
    public let id: String
    /// The record's revision for a `RevisionedRecord` (for a tombstone: the revision it had when
    /// it was deleted); nil for other records.
    public let revision: Int?
    /// The feed's position after this entry: a cursor a client may store once it applied it.
    public let cursor: ChangeCursor

    /// The saved record, or nil for a tombstone.
    public var record: Record? {
        if case .saved(let record) = change { record } else { nil }
    }

    /// True for a tombstone.
    public var isDeletion: Bool {
        if case .deleted = change { true } else { false }
    }

    package init(change: Change, id: String, revision: Int?, cursor: ChangeCursor) {
        self.change = change
        self.id = id
        self.revision = revision
        self.cursor = cursor
    }
}

/// A page of a table's change feed, oldest change first.
///
/// ```swift
/// var cursor: ChangeCursor? = loadCursor()
/// repeat {
///     let page = try await notes.changes(after: cursor, limit: 500)
///     for entry in page.entries { apply(entry) }
///     cursor = page.next                       // store it with what was applied
/// } while page.hasMore
/// ```
public struct ChangePage<Record: Sendable & Identifiable>: Sendable where Record.ID: Sendable {
    /// The changes after the cursor asked for, in feed order.
    public let entries: [ChangeFeedEntry<Record>]
    /// The cursor to ask with next: after the last entry, or the one asked with when the page
    /// is empty (for `after: nil`, the feed's start).
    public let next: ChangeCursor
    /// True when more changes follow this page now.
    public let hasMore: Bool

    package init(entries: [ChangeFeedEntry<Record>], next: ChangeCursor, hasMore: Bool) {
        self.entries = entries
        self.next = next
        self.hasMore = hasMore
    }
}
