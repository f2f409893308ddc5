import Commands
import Errors
import Foundation
import Testing

@Suite("Journal and replay")
struct JournalTests {
    @Test("the journal records name, Codable input and outcome of each command")
    func records() throws {
        let runner = CommandRunner(store: ModelStore(Counter()), journalLimit: 1_000)
        try runner.execute(Add(amount: 2))
        _ = try? runner.execute(Add(amount: -1))
        let journal = runner.journal
        #expect(journal.map(\.name) == ["Add", "Add"])
        #expect(journal[0].outcome == .succeeded)
        #expect(journal[1].outcome == .failed(code: "MessageError", message: "Cannot add -1."))
        let input = try JSONDecoder().decode(Add.self, from: try #require(journal[0].input))
        #expect(input.amount == 2)
    }

    @Test("a runner keeps no journal unless asked: the default holds on to no command")
    func offByDefault() async throws {
        let quiet = CommandRunner(store: ModelStore(Counter()))
        try quiet.execute(Add(amount: 2))
        _ = try? quiet.execute(Add(amount: -1))
        #expect(quiet.journal.isEmpty)
        #expect(quiet.store.model.value == 2)
        try await quiet.undo()
        #expect(quiet.store.model.value == 0)

        let journaling = CommandRunner(store: ModelStore(Counter()), journalLimit: 10)
        try journaling.execute(Add(amount: 2))
        #expect(journaling.journal.map(\.name) == ["Add"])
    }

    @Test("the journal is bounded: it keeps the newest entries")
    func bounded() throws {
        let runner = CommandRunner(store: ModelStore(Counter()), journalLimit: 3)
        for amount in 1...7 { try runner.execute(Add(amount: amount)) }
        let amounts = try runner.journal.map { try JSONDecoder().decode(Add.self, from: try #require($0.input)).amount }
        #expect(amounts == [5, 6, 7])
    }

    @Test("replaying a saved journal rebuilds the same model")
    func replay() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        try runner.execute(Add(amount: 3))
        try runner.execute(Append(text: "hello"))
        _ = try? runner.execute(Append(text: ""))
        try runner.execute(Add(amount: 4))
        let saved = try JSONEncoder().encode(runner.journal)
        var registry = CommandRegistry<Counter>()
        registry.register(Add.self)
        registry.register(Append.self)
        let entries = try JSONDecoder().decode([JournalEntry].self, from: saved)
        #expect(try registry.replay(entries, on: Counter()) == store.model)

        let other = CommandRunner(store: ModelStore(Counter()), journalLimit: 1_000)
        try await other.replay(entries, using: registry)
        #expect(other.store.model == store.model)
        try await other.undo()
        #expect(other.store.model == Counter())
    }

    @Test("replay with an unknown command name throws a typed error and changes nothing")
    func unknownName() async throws {
        let runner = CommandRunner(store: ModelStore(Counter()), journalLimit: 1_000)
        try runner.execute(Add(amount: 3))
        try runner.execute(Append(text: "x"))
        var registry = CommandRegistry<Counter>()
        registry.register(Add.self)
        let target = CommandRunner(store: ModelStore(Counter(value: 42)), journalLimit: 1_000)
        await #expect(throws: CommandError.unknownCommand(name: "Append", entry: 1)) {
            try await target.replay(runner.journal, using: registry)
        }
        #expect(target.store.model == Counter(value: 42))
    }

    @Test("entries without input, with bad input, or recording undo cannot be replayed")
    func badEntries() async throws {
        var registry = CommandRegistry<Counter>()
        registry.register(Add.self)
        let noInput = JournalEntry(name: "Add", input: nil, outcome: .succeeded, duration: .zero)
        #expect(throws: CommandError.self) { try registry.replay([noInput], on: Counter()) }
        let badInput = JournalEntry(name: "Add", input: Data("{}".utf8), outcome: .succeeded, duration: .zero)
        #expect(throws: CommandError.self) { try registry.replay([badInput], on: Counter()) }
        let undo = JournalEntry(name: "undo", input: nil, outcome: .succeeded, duration: .zero)
        #expect(throws: CommandError.notReplayable(name: "undo", entry: 0)) {
            try registry.replay([undo], on: Counter())
        }
        let failed = JournalEntry(name: "Nope", input: nil, outcome: .cancelled, duration: .zero)
        #expect(try registry.replay([failed], on: Counter()) == Counter())
    }
}
