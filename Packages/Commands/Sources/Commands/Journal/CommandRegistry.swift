import Errors
import Foundation

/// The commands a journal may be replayed with, by name.
///
/// Replay rebuilds a model deterministically: it applies, in order, every journal entry whose
/// changes were applied when it first ran, decoding each command from its JSON input.
///
/// ```swift
/// var registry = CommandRegistry<AppModel>()
/// registry.register(AddGroup.self)
/// let rebuilt = try registry.replay(runner.journal, on: AppModel())
/// ```
public struct CommandRegistry<Model: Sendable>: Sendable {
    typealias Apply = @Sendable (Data, inout Model) throws -> Void

    private var decoders: [String: Apply] = [:]

    /// An empty registry.
    public init() {}

    /// The names of the registered commands.
    public var names: Set<String> { Set(decoders.keys) }

    /// Registers a command type for replay under `name` (its ``Command/commandName`` by default).
    public mutating func register<C: Command & Decodable>(_ type: C.Type, as name: String = C.commandName)
    where C.Model == Model {
        decoders[name] = { data, model in
            let command = try JSONDecoder().decode(C.self, from: data)
            _ = try command.execute(&model)
        }
    }

    /// Applies `entries` to `model` and returns the result; `model` itself is not changed.
    ///
    /// Entries that did not change the model when they ran (failed, cancelled, vetoed) are
    /// skipped.
    ///
    /// - Throws: ``CommandError/unknownCommand(name:entry:)``,
    ///   ``CommandError/undecodableInput(name:entry:reason:)``,
    ///   ``CommandError/notReplayable(name:entry:)``, or the error a replayed command throws.
    public func replay(_ entries: [JournalEntry], on model: Model) throws -> Model {
        var result = model
        for (index, entry) in entries.enumerated() where entry.outcome.appliedChanges {
            if [JournalEntry.ReservedName.undo, JournalEntry.ReservedName.redo, JournalEntry.ReservedName.replay]
                .contains(entry.name)
            {
                throw CommandError.notReplayable(name: entry.name, entry: index)
            }
            guard let apply = decoders[entry.name] else {
                throw CommandError.unknownCommand(name: entry.name, entry: index)
            }
            guard let input = entry.input else {
                throw CommandError.undecodableInput(name: entry.name, entry: index, reason: "the entry has no input.")
            }
            do {
                try apply(input, &result)
            } catch let error as DecodingError {
                throw CommandError.undecodableInput(name: entry.name, entry: index, reason: error.userMessage)
            }
        }
        return result
    }
}
