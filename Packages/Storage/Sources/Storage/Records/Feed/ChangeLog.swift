import Foundation

/// What database backends share to keep a change feed: which entries a batch writes, how a
/// cursor is checked against the feed, and how log rows become a page. Each backend stores the
/// log in its own table (`<table>__changes`, one row per record: its latest change) and the
/// feed's id, last position and horizon in `boiler_change_feeds`.
package enum ChangeLog {
    /// The log's table for the record table `table`.
    package static func table(for table: String) -> String { table + "__changes" }

    /// The table holding each feed's id, last position and horizon, one row per record table.
    package static let feedsTable = "boiler_change_feeds"

    /// One log write: the record's latest change in a batch.
    package struct Write: Sendable {
        /// The record's ``RecordID`` text.
        package var id: String
        /// For a tombstone, the id as JSON (`[id]`, so any Codable id round-trips); nil when saved.
        package var deletedID: Data?
        /// The revision a deleted record had; 0 otherwise.
        package var revision: Int

        package init(id: String, deletedID: Data?, revision: Int) {
            self.id = id
            self.deletedID = deletedID
            self.revision = revision
        }
    }

    /// `writes` with each id kept once, at its last change, in the order of those last changes:
    /// the order positions are handed out in.
    package static func coalesced(_ writes: [Write]) -> [Write] {
        var last: [String: Int] = [:]
        for (index, write) in writes.enumerated() { last[write.id] = index }
        return writes.enumerated().filter { last[$0.element.id] == $0.offset }.map(\.element)
    }

    /// The id of a deleted record as the log stores it.
    package static func encodedID(_ id: some Encodable, in name: String) throws -> Data {
        try RecordCoding.encode([id], in: name)
    }

    /// A page size from the one asked for: at least 1, at most ``ChangeFeed/maximumPageSize``.
    package static func pageSize(_ limit: Int) throws(ChangeFeedError) -> Int {
        guard limit >= 1 else { throw .invalidLimit(limit) }
        return min(limit, ChangeFeed.maximumPageSize)
    }

    /// The position to read after, once `cursor` is checked against the feed's state (read in the
    /// same snapshot as the page).
    ///
    /// - Throws: ``ChangeFeedError/foreignCursor(_:in:)``, ``ChangeFeedError/cursorExpired(_:in:)``
    ///   (tombstones after it were dropped), ``ChangeFeedError/cursorAhead(_:in:)``.
    package static func start(
        after cursor: ChangeCursor?, feed: String, horizon: Int64, last: Int64, in name: String
    ) throws(ChangeFeedError) -> Int64 {
        guard let cursor else { return 0 }
        guard cursor.feed == feed else { throw .foreignCursor(cursor.description, in: name) }
        guard cursor.position >= horizon else { throw .cursorExpired(cursor.description, in: name) }
        guard cursor.position <= last else { throw .cursorAhead(cursor.description, in: name) }
        return cursor.position
    }

    /// One log row joined with its record's body (nil for a tombstone).
    package struct Row {
        package var position: Int64
        package var id: String
        package var revision: Int
        package var body: Data?
        package var deletedID: Data?

        package init(position: Int64, id: String, revision: Int, body: Data?, deletedID: Data?) {
            self.position = position
            self.id = id
            self.revision = revision
            self.body = body
            self.deletedID = deletedID
        }
    }

    /// The page made of `rows` (up to `size + 1` of them, in position order, the extra one only
    /// saying more follow).
    package static func page<Record: Decodable & Identifiable & Sendable>(
        _ rows: [Row], size: Int, feed: String, after start: Int64, in name: String
    ) throws -> ChangePage<Record> where Record.ID: Decodable & Sendable {
        let revisioned = Record.self is any RevisionedRecord.Type
        let reader = RecordCoding.Reader<Record>(in: name)
        var entries: [ChangeFeedEntry<Record>] = []
        entries.reserveCapacity(min(rows.count, size))
        for row in rows.prefix(size) {
            let cursor = ChangeCursor(feed: feed, position: row.position)
            if let deletedID = row.deletedID {
                let ids = try RecordCoding.decode([Record.ID].self, from: deletedID, in: name)
                guard let id = ids.first else {
                    throw StorageError.corrupt(
                        URL(fileURLWithPath: name), movedTo: nil, underlying: CocoaError(.coderReadCorrupt))
                }
                entries.append(
                    ChangeFeedEntry(
                        change: .deleted(id), id: row.id, revision: revisioned ? row.revision : nil, cursor: cursor))
            } else if let body = row.body {
                let record = try reader.decode(body)
                entries.append(
                    ChangeFeedEntry(
                        change: .saved(record), id: row.id,
                        revision: (record as? any RevisionedRecord)?.revision, cursor: cursor))
            } else {
                // The log and the table are written in one transaction and read in one snapshot,
                // so a saved entry without its row means the table was changed behind the store.
                throw StorageError.recordNotFound(id: row.id, in: name)
            }
        }
        let next = entries.last?.cursor ?? ChangeCursor(feed: feed, position: start)
        return ChangePage(entries: entries, next: next, hasMore: rows.count > size)
    }
}
