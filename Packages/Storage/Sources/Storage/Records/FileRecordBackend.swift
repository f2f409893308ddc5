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
            let (next, nextPositions) = try RecordBatchStep.apply(
                changes, to: records, positions: positions, in: url.path)
            let data = try Codec.encode(next, for: url, using: nil)
            try AtomicFile.write(data, to: url, durability: store.durability, attributes: store.attributes)
            records = next
            positions = nextPositions
            identity = FileIdentity.of(url)
        }
        FileRecordSignals.poke(url.path)
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
        positions = RecordBatchStep.index(records)
        identity = current
        loaded = true
    }
}
