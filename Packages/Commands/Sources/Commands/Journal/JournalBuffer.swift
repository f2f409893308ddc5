import Foundation

/// The bounded journal: the last `capacity` records, oldest dropped first.
///
/// A value, kept in ``RunnerRecords`` and guarded by the store's lock. Recording is cheap: it
/// keeps the command value and a duration, and works out names and encoded inputs only when
/// the journal is read.
@usableFromInline
struct JournalBuffer {
    /// One entry, kept small so that recording stays cheap: the outcome of a command that
    /// succeeded (the common case) takes no space.
    @usableFromInline
    struct Record {
        /// The command, or a ``Reserved`` name for undo, redo and replay.
        @usableFromInline var command: any Sendable
        /// How it ended, unless it succeeded.
        @usableFromInline var failure: Failure?
        @usableFromInline var nanoseconds: UInt64

        @usableFromInline
        init(command: any Sendable, failure: Failure?, nanoseconds: UInt64) {
            self.command = command
            self.failure = failure
            self.nanoseconds = nanoseconds
        }

        var outcome: CommandOutcome { failure?.outcome ?? .succeeded }
    }

    /// An outcome other than ``CommandOutcome/succeeded``, boxed.
    @usableFromInline
    final class Failure: Sendable {
        let outcome: CommandOutcome

        @usableFromInline
        init(_ outcome: CommandOutcome) {
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
        ring.append(Record(command: command, failure: nil, nanoseconds: nanoseconds))
    }

    /// Records a command and how it ended.
    @inlinable
    mutating func record<C: Sendable>(_ command: C, outcome: CommandOutcome, nanoseconds: UInt64) {
        guard isEnabled else { return }
        let failure: Failure? = if case .succeeded = outcome { nil } else { Failure(outcome) }
        ring.append(Record(command: command, failure: failure, nanoseconds: nanoseconds))
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
            // A reserved record's input is its name, as JSON: what it has always been.
            let reserved = record.command as? Reserved
            return JournalEntry(
                name: reserved?.name ?? commandName(of: record.command),
                input: encode(reserved?.name ?? record.command, with: encoder), outcome: record.outcome,
                duration: .nanoseconds(Int64(clamping: record.nanoseconds)))
        }
    }

    private static func encode(_ value: any Sendable, with encoder: JSONEncoder) -> Data? {
        guard let encodable = value as? any Encodable else { return nil }
        return try? encoder.encode(encodable)
    }
}
