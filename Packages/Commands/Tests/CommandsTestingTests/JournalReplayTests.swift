import Commands
import CommandsTesting
import Foundation
import Testing

@Suite("CommandTester replays a recorded journal")
struct JournalReplayTests {
    /// A session as a user's app recorded it, then sent as JSON with a bug report.
    static func recordedJournal() throws -> Data {
        let runner = CommandRunner(store: ModelStore(Session()), journalLimit: 100)
        try runner.execute(SignIn(user: "ana"))
        try runner.execute(Receive(message: "milk"))
        #expect(throws: (any Error).self) { try runner.execute(FailingReceive()) }
        try runner.execute(Receive(message: "eggs"))
        return try JSONEncoder().encode(runner.journal)
    }

    static var registry: CommandRegistry<Session> {
        var registry = CommandRegistry<Session>()
        registry.register(SignIn.self)
        registry.register(Receive.self)
        return registry
    }

    @Test("a journal decoded from JSON rebuilds the user's model, as one asserted change")
    func reproducesSession() async throws {
        let journal = try JSONDecoder().decode([JournalEntry].self, from: Self.recordedJournal())
        let tester = CommandTester(Session())
        try await tester.replay(journal, using: Self.registry) {
            $0.user = "ana"
            $0.inbox = ["milk", "eggs"]
            $0.lastSync = 3
        }
        #expect(tester.store.model.inbox == ["milk", "eggs"])
        tester.finish()
    }

    @Test("a wrong expectation of the replayed model fails with a diff")
    func wrongExpectation() async throws {
        let failures = Failures()
        let journal = try JSONDecoder().decode([JournalEntry].self, from: Self.recordedJournal())
        let tester = CommandTester(Session(), reporter: failures.reporter)
        try await tester.replay(journal, using: Self.registry) {
            $0.user = "ana"
            $0.inbox = ["milk"]
            $0.lastSync = 3
        }
        #expect(failures.all.count == 1)
        #expect(failures.all.first?.contains("eggs") == true)
    }

    @Test("an entry naming an unregistered command throws with its index and changes nothing")
    func unknownCommand() async throws {
        let journal = try JSONDecoder().decode([JournalEntry].self, from: Self.recordedJournal())
        var registry = CommandRegistry<Session>()
        registry.register(SignIn.self)
        let tester = CommandTester(Session())
        await #expect(throws: CommandError.unknownCommand(name: "Receive", entry: 1)) {
            try await tester.replay(journal, using: registry) { _ in }
        }
        #expect(tester.store.model == Session())
        tester.finish()
    }

    @Test("a tampered entry input throws undecodableInput naming the entry")
    func tamperedInput() async throws {
        var journal = try JSONDecoder().decode([JournalEntry].self, from: Self.recordedJournal())
        try #require(journal.map(\.name) == ["SignIn", "Receive", "FailingReceive", "Receive"])
        journal[1].input = Data(#"{"message": 42}"#.utf8)
        let tester = CommandTester(Session())
        await #expect {
            try await tester.replay(journal, using: Self.registry) { _ in }
        } throws: { error in
            guard case CommandError.undecodableInput(name: "Receive", entry: 1, _) = error else { return false }
            return true
        }
        #expect(tester.store.model == Session())
        tester.finish()
    }
}

/// A command that always fails: its journal entry records the failure and replay skips it.
struct FailingReceive: Command, Codable {
    func execute(_ model: inout Session) throws {
        model.inbox.append("never")
        throw CancellationError()
    }
}
