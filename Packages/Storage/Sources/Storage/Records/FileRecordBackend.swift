import Foundation
import Serialization

/// Records kept in one file as an array, rewritten atomically on every write.
///
/// The records live in memory; the file is re-read only when another process changed it
/// (its inode, size or modification time differ). Writes hold the file's cross-process lock,
/// so two processes writing the same collection never lose each other's changes.
public actor FileRecordBackend<Record: Codable & Identifiable & Sendable>: RecordBackend
where Record.ID: Codable & Sendable {
    /// The store holding the file.
    public nonisolated let store: FileStore
    /// The file's key.
    public nonisolated let key: String

    private let url: URL
    private var records: [Record] = []
    private var positions: [String: Int] = [:]
    private var identity: FileIdentity?
    private var loaded = false
    private let revisioned = Record.self is any RevisionedRecord.Type

    /// A backend kept in `file` of `store`.
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` for a bad key.
    public init(file: String, in store: FileStore) throws(StorageError) {
        self.store = store
        self.key = file
        self.url = try store.url(for: file)
    }

    /// Every record, in insertion order.
    public func fetchAll() async throws -> [Record] {
        try refresh()
        return records
    }

    /// The record with `id`, or nil.
    public func fetch(id: Record.ID) async throws -> Record? {
        try refresh()
        return positions[RecordID.string(for: id)].map { records[$0] }
    }

    /// The number of records.
    public func count() async throws -> Int {
        try refresh()
        return records.count
    }

    /// Applies `changes` and saves the file, all or nothing.
    public func apply(_ changes: [RecordChange<Record>]) async throws {
        try FileStore.createFolder(url.deletingLastPathComponent())
        try FileLock.withLock(for: url) { () throws in
            try refresh(lockHeld: true)
            // Deleted slots become nil and are compacted once at the end: batches stay linear.
            var slots: [Record?] = records
            var slotOf = positions
            var deleted = false
            for change in changes {
                switch change {
                case .insert(let record):
                    let id = RecordID.string(for: record.id)
                    if slotOf[id] != nil { throw StorageError.duplicateRecord(id: id, in: url.path) }
                    slotOf[id] = slots.count
                    slots.append(record)
                case .update(let record):
                    let id = RecordID.string(for: record.id)
                    guard let slot = slotOf[id] else { throw StorageError.recordNotFound(id: id, in: url.path) }
                    slots[slot] = try revised(record, replacing: slots[slot], id: id)
                case .save(let record):
                    let id = RecordID.string(for: record.id)
                    if let slot = slotOf[id] {
                        slots[slot] = try revised(record, replacing: slots[slot], id: id)
                    } else {
                        slotOf[id] = slots.count
                        slots.append(record)
                    }
                case .delete(let recordID):
                    guard let slot = slotOf.removeValue(forKey: RecordID.string(for: recordID)) else { continue }
                    slots[slot] = nil
                    deleted = true
                }
            }
            let next = slots.compactMap { $0 }
            let data = try Codec.encode(next, for: url, using: nil)
            try AtomicFile.write(data, to: url, durability: store.durability, attributes: store.attributes)
            records = next
            positions = deleted ? Self.index(next) : slotOf
            identity = FileIdentity.of(url)
        }
        FileRecordSignals.poke(url.path)
    }

    /// `record` with its revision advanced past `stored`'s, for a ``RevisionedRecord``.
    /// - Throws: ``RecordStoreError/staleRevision(id:expected:stored:in:)`` when `record` was read at
    ///   another revision than the stored one.
    private func revised(_ record: Record, replacing stored: Record?, id: String) throws -> Record {
        guard revisioned, var next = record as? any RevisionedRecord,
            let current = (stored as? any RevisionedRecord)?.revision
        else { return record }
        guard next.revision == current else {
            throw RecordStoreError.staleRevision(id: id, expected: next.revision, stored: current, in: url.path)
        }
        next.revision = current + 1
        return next as? Record ?? record
    }

    /// The records `plan` selects, evaluated in memory.
    public func fetch(_ plan: RecordQueryPlan<Record>) async throws -> [Record] {
        try refresh()
        return plan.run(on: records)
    }

    /// The number of records `plan`'s condition selects, counted in memory.
    public func count(_ plan: RecordQueryPlan<Record>) async throws -> Int {
        try refresh()
        return records.count(where: plan.matches)
    }

    /// The records `plan` selects now, then after each write to this file by a backend in this
    /// process (writes by other processes are not signalled).
    public nonisolated func changes(_ plan: RecordQueryPlan<Record>) -> AsyncThrowingStream<[Record], any Error> {
        let path = url.path
        let (pokes, token) = FileRecordSignals.subscribe(path)
        return RecordObservation.stream(
            pokes: pokes, fetch: { try await self.fetch(plan) },
            onTermination: { FileRecordSignals.unsubscribe(path, token) })
    }

    /// Re-reads the file when it is not the one last read or written.
    private func refresh(lockHeld: Bool = false) throws {
        let current = FileIdentity.of(url)
        if loaded, current == identity { return }
        guard current != nil else {
            // No file: an empty collection — unless the file was moved aside as corrupt and the
            // app has not decided yet; starting empty would drop every record from view.
            if let moved = FileStore.pendingQuarantines(of: url).last {
                throw FileStore.undecided(url, movedTo: moved) { data in
                    _ = try Codec.decode([Record].self, from: data, at: url, using: nil)
                }
            }
            (records, positions, identity, loaded) = ([], [:], nil, true)
            return
        }
        let data = try FileStore.read(url)
        do {
            records = try Codec.decode([Record].self, from: data, at: url, using: nil)
        } catch {
            throw store.quarantine(url, readAs: current, failure: error, lockHeld: lockHeld)
        }
        positions = Self.index(records)
        identity = current
        loaded = true
    }

    private static func index(_ records: [Record]) -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(records.count)
        for (position, record) in records.enumerated() { positions[RecordID.string(for: record.id)] = position }
        return positions
    }
}
