/// Applies a batch of record changes to records held in memory, all or nothing: the one place
/// that says what insert, update, save and delete do — duplicate and missing ids, revisions — for
/// the file and the in-memory backends.
package enum RecordBatchStep {
    /// The records and id positions after `changes`; the inputs are left as they were.
    ///
    /// Deleted slots become nil and are compacted once at the end, so a batch stays linear.
    /// - Parameters:
    ///   - changes: The batch, in order.
    ///   - records: The records before it.
    ///   - positions: Each record's index in `records`, by its ``RecordID`` text.
    ///   - location: Where the records live, for error messages (a path, `memory:<name>`).
    /// - Throws: ``StorageError/duplicateRecord(id:in:)``, ``StorageError/recordNotFound(id:in:)``
    ///   or ``RecordStoreError/staleRevision(id:expected:stored:in:)``.
    package static func apply<Record: Identifiable>(
        _ changes: [RecordChange<Record>], to records: [Record], positions: [String: Int], in location: String
    ) throws -> (records: [Record], positions: [String: Int]) where Record.ID: Encodable {
        let revisioned = Record.self is any RevisionedRecord.Type
        func revised(_ record: Record, replacing stored: Record?, id: String) throws -> Record {
            guard revisioned, var next = record as? any RevisionedRecord,
                let current = (stored as? any RevisionedRecord)?.revision
            else { return record }
            guard next.revision == current else {
                throw RecordStoreError.staleRevision(id: id, expected: next.revision, stored: current, in: location)
            }
            next.revision = current + 1
            return next as? Record ?? record
        }
        var slots: [Record?] = records
        var slotOf = positions
        var deleted = false
        for change in changes {
            switch change {
            case .insert(let record):
                let id = RecordID.string(for: record.id)
                if slotOf[id] != nil { throw StorageError.duplicateRecord(id: id, in: location) }
                slotOf[id] = slots.count
                slots.append(record)
            case .update(let record):
                let id = RecordID.string(for: record.id)
                guard let slot = slotOf[id] else { throw StorageError.recordNotFound(id: id, in: location) }
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
        return (next, deleted ? index(next) : slotOf)
    }

    /// Each record's index in `records`, by its ``RecordID`` text.
    package static func index<Record: Identifiable>(_ records: [Record]) -> [String: Int] where Record.ID: Encodable {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(records.count)
        for (position, record) in records.enumerated() { positions[RecordID.string(for: record.id)] = position }
        return positions
    }
}
