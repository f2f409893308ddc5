import Foundation

/// Records kept in memory only, with the same rules as ``FileRecordBackend``: for fast tests
/// and previews, never for data that must survive the process.
///
/// Inserting an existing id throws ``StorageError/duplicateRecord(id:in:)``, updating a missing
/// one ``StorageError/recordNotFound(id:in:)``; a batch applies all of its changes or none; a
/// ``RevisionedRecord`` written at a stale revision throws
/// ``RecordStoreError/staleRevision(id:expected:stored:in:)``; queries run through
/// ``RecordQueryPlan/run(on:)``; ``changes(_:)`` yields after every write to this backend.
///
/// ```swift
/// let notes = RecordStore<Note>.inMemory()
/// try await notes.insert(Note(id: 1, title: "Groceries"))
/// ```
///
/// Each instance is its own collection: two in-memory backends never share records.
public actor InMemoryRecordBackend<Record: Codable & Identifiable & Sendable>: RecordBackend
where Record.ID: Codable & Sendable {
    /// The name errors use for where the record was looked for, such as `"memory:notes"`.
    public nonisolated let location: String

    private var records: [Record]
    private var positions: [String: Int]
    // A key no file path can have, so the in-process signals never mix with a file's.
    private nonisolated let signalKey = "memory:\(UUID().uuidString)"

    /// An empty backend, named `name` in errors.
    public init(name: String = "records") {
        location = "memory:\(name)"
        records = []
        positions = [:]
    }

    /// A backend holding `records`, in order, named `name` in errors.
    ///
    /// - Throws: ``StorageError/duplicateRecord(id:in:)`` when two of `records` share an id.
    public init(name: String = "records", records: [Record]) throws(StorageError) {
        location = "memory:\(name)"
        var positions: [String: Int] = [:]
        for (position, record) in records.enumerated() {
            let id = RecordID.string(for: record.id)
            if positions[id] != nil { throw StorageError.duplicateRecord(id: id, in: "memory:\(name)") }
            positions[id] = position
        }
        self.records = records
        self.positions = positions
    }

    /// Every record, in insertion order.
    public func fetchAll() async throws -> [Record] { records }

    /// The record with `id`, or nil.
    public func fetch(id: Record.ID) async throws -> Record? {
        positions[RecordID.string(for: id)].map { records[$0] }
    }

    /// The number of records.
    public func count() async throws -> Int { records.count }

    /// Applies `changes` in order, all or nothing.
    public func apply(_ changes: [RecordChange<Record>]) async throws {
        // Work on copies and commit at the end, so a failing change leaves nothing applied.
        (records, positions) = try RecordBatchStep.apply(changes, to: records, positions: positions, in: location)
        FileRecordSignals.poke(signalKey)
    }

    /// The records `plan` selects, evaluated in memory.
    public func fetch(_ plan: RecordQueryPlan<Record>) async throws -> [Record] {
        plan.run(on: records)
    }

    /// The number of records `plan`'s condition selects.
    public func count(_ plan: RecordQueryPlan<Record>) async throws -> Int {
        records.count(where: plan.matches)
    }

    /// The records `plan` selects now, then after each write to this backend.
    public nonisolated func changes(_ plan: RecordQueryPlan<Record>) -> AsyncThrowingStream<[Record], any Error> {
        let key = signalKey
        let (pokes, token) = FileRecordSignals.subscribe(key)
        return RecordObservation.stream(
            pokes: pokes, fetch: { try await self.fetch(plan) },
            onTermination: { FileRecordSignals.unsubscribe(key, token) })
    }
}

extension RecordStore {
    /// A store kept in memory only (``InMemoryRecordBackend``), empty, for tests and previews.
    public static func inMemory(name: String = "records") -> RecordStore {
        RecordStore(backend: InMemoryRecordBackend<Record>(name: name))
    }
}
