import Foundation

/// One line of the journal: which command ran, with what input, how it ended, how long it took.
///
/// Entries are `Codable`, so a journal can be saved and replayed later with a
/// ``CommandRegistry``.
public struct JournalEntry: Sendable, Hashable, Codable {
    /// The command's name (``Command/commandName``), or `"undo"`, `"redo"`, `"replay"`.
    public var name: String
    /// The command encoded as JSON when it is `Encodable`; nil otherwise.
    public var input: Data?
    /// How it ended.
    public var outcome: CommandOutcome
    /// From the start of the command to the end of its commit (or failure). Sync commands run
    /// by a runner without middleware are timed with a cheap clock: on Linux its resolution is
    /// the kernel tick (a few milliseconds), so quick ones show zero.
    public var duration: Duration

    /// Creates an entry.
    public init(name: String, input: Data?, outcome: CommandOutcome, duration: Duration) {
        self.name = name
        self.input = input
        self.outcome = outcome
        self.duration = duration
    }

    /// The names journal entries use for changes that are not commands.
    public enum ReservedName {
        /// An undo step.
        public static let undo = "undo"
        /// A redo step.
        public static let redo = "redo"
        /// A replay of journal entries.
        public static let replay = "replay"
    }
}
