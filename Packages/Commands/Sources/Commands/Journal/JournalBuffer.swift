import Foundation

/// The bounded journal: the last `capacity` records, oldest dropped first.
///
/// A value, kept in ``RunnerRecords`` and guarded by the store's lock. Recording is cheap: it
/// keeps the command value and a duration, and works out names and encoded inputs only when
/// the journal is read.
@usableFromInline
struct JournalBuffer {
    /// One entry, kept small so that recording stays cheap: a command and a duration. A
    /// command that did not succeed is recorded wrapped in ``Failed``, with its outcome.
    @usableFromInline
    struct Record {
        /// The command, a ``Reserved`` name for undo, redo and replay, or either in ``Failed``.
        @usableFromInline var command: any Sendable
        @usableFromInline var nanoseconds: UInt64

        @usableFromInline
        init(command: any Sendable, nanoseconds: UInt64) {
            self.command = command
            self.nanoseconds = nanoseconds
        }
    }

    /// The `command` of a record whose command did not succeed.
    @usableFromInline
    struct Failed: Sendable {
        let command: any Sendable
        let outcome: CommandOutcome

        @usableFromInline
        init(command: any Sendable, outcome: CommandOutcome) {
            self.command = command
            self.outcome = outcome
        }
    }

    /// The `command` of an undo, redo or replay record.
    struct Reserved: Sendable {
        var name: String
    }

    @usableFromInline var ring: Ring<Record>

    init(capacity: Int) {
        ring = Ring(capacity: capacity)
    }

    /// Whether the journal is on (`journalLimit > 0`).
    @inlinable var isEnabled: Bool { ring.capacity > 0 }

    /// Records a command that succeeded. Generic, so that a runner without a journal does not
    /// even box the command.
    @inlinable
    mutating func recordSuccess<C: Sendable>(_ command: C, nanoseconds: UInt64) {
        guard isEnabled else { return }
        if ring.count == ring.capacity, Self.isInlinePlainValue(C.self) {
            // The steady state: the oldest record goes. When it holds a command of this same
            // plain type, stored inline in its existential, destroying it would do nothing, yet
            // going through the existential's value witnesses to find that out was about a tenth
            // of a journaled command; so the new record is written over it.
            let oldest = ring.slots + ring.head
            if Self.storedType(in: oldest) == unsafeBitCast(C.self, to: UnsafeRawPointer.self) {
                oldest.initialize(to: Record(command: command, nanoseconds: nanoseconds))
                ring.head = ring.head + 1 == ring.allocated ? 0 : ring.head + 1
                return
            }
        }
        ring.append(Record(command: command, nanoseconds: nanoseconds))
    }

    /// The type metadata of the command in `record`, read from its existential container
    /// without opening it (`type(of:)` copies the existential and asks the runtime). The
    /// container of an `any Sendable` (a protocol composition without witness tables) is a
    /// three-word value buffer followed by the metadata pointer: Swift's stable existential
    /// layout.
    @inlinable
    static func storedType(in record: UnsafeMutablePointer<Record>) -> UnsafeRawPointer? {
        guard let offset = MemoryLayout<Record>.offset(of: \Record.command) else { return nil }
        return UnsafeRawPointer(record).load(
            fromByteOffset: offset + 3 * MemoryLayout<Int>.size, as: UnsafeRawPointer?.self)
    }

    /// Whether a value of type `C` in an existential owns nothing: a plain value (no
    /// references, no resources) small and aligned enough to be stored inline in the
    /// existential's three-word buffer rather than in a box on the heap.
    @inlinable
    static func isInlinePlainValue<C>(_ type: C.Type) -> Bool {
        _isPOD(C.self) && MemoryLayout<C>.size <= 3 * MemoryLayout<Int>.size
            && MemoryLayout<C>.alignment <= MemoryLayout<Int>.alignment
    }

    /// Records a command and how it ended.
    @inlinable
    mutating func record<C: Sendable>(_ command: C, outcome: CommandOutcome, nanoseconds: UInt64) {
        guard isEnabled else { return }
        let recorded: any Sendable =
            if case .succeeded = outcome { command } else { Failed(command: command, outcome: outcome) }
        ring.append(Record(command: recorded, nanoseconds: nanoseconds))
    }

    /// Records an undo, redo or replay.
    mutating func record(reserved name: String, outcome: CommandOutcome, nanoseconds: UInt64) {
        record(Reserved(name: name), outcome: outcome, nanoseconds: nanoseconds)
    }

    mutating func removeAll() {
        ring.removeAll()
    }

    /// `records` as entries with encoded inputs, oldest first. Call it without the lock held:
    /// encoding runs the commands' `encode(to:)`.
    static func entries(_ records: [Record]) -> [JournalEntry] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return records.map { record in
            let failed = record.command as? Failed
            let command = failed?.command ?? record.command
            // A reserved record's input is its name, as JSON: what it has always been.
            let reserved = command as? Reserved
            return JournalEntry(
                name: reserved?.name ?? commandName(of: command),
                input: encode(reserved?.name ?? command, with: encoder), outcome: failed?.outcome ?? .succeeded,
                duration: .nanoseconds(Int64(clamping: record.nanoseconds)))
        }
    }

    private static func encode(_ value: any Sendable, with encoder: JSONEncoder) -> Data? {
        guard let encodable = value as? any Encodable else { return nil }
        return try? encoder.encode(encodable)
    }
}
