import Foundation

/// The bounded journal: the last `capacity` records, oldest dropped first.
///
/// Recording is cheap: it keeps the command value and encodes its input only when the journal
/// is read.
@usableFromInline
final class JournalBuffer: Sendable {
    struct Record {
        var command: any Sendable
        var name: String?
        var outcome: CommandOutcome
        var duration: Duration
    }

    struct Ring {
        var capacity: Int
        var records: [Record] = []
        var head = 0
    }

    let ring: Locked<Ring>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        ring = Locked(Ring(capacity: max(0, capacity)))
    }

    @usableFromInline
    func record(_ command: any Sendable, name: String? = nil, outcome: CommandOutcome, duration: Duration) {
        guard capacity > 0 else { return }
        let record = Record(command: command, name: name, outcome: outcome, duration: duration)
        ring.withLock { ring in
            if ring.records.count < ring.capacity {
                ring.records.append(record)
            } else {
                ring.records[ring.head] = record
                ring.head = (ring.head + 1) % ring.capacity
            }
        }
    }

    /// The records, oldest first, as entries with encoded inputs.
    func entries() -> [JournalEntry] {
        let records = ring.withLock { ring in
            Array(ring.records[ring.head...] + ring.records[..<ring.head])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return records.map { record in
            JournalEntry(
                name: record.name ?? commandName(of: record.command), input: Self.encode(record.command, with: encoder),
                outcome: record.outcome, duration: record.duration)
        }
    }

    func removeAll() {
        ring.withLock { ring in
            ring.records.removeAll()
            ring.head = 0
        }
    }

    private static func encode(_ value: any Sendable, with encoder: JSONEncoder) -> Data? {
        guard let encodable = value as? any Encodable else { return nil }
        return try? encoder.encode(encodable)
    }
}
