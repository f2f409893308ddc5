import Commands
import CommandsTesting
import Errors
import Foundation
import Testing
import _KitSupport

struct Notes: Sendable, Equatable {
    var notes: [String] = []
    var count = 0
}

struct AddNote: Command {
    var text: String
    func execute(_ model: inout Notes) throws {
        guard !text.isEmpty else { throw MessageError("A note needs text.") }
        model.notes.append(text)
    }
}

struct CountNotes: Command {
    func execute(_ model: inout Notes) throws { model.count = model.notes.count }
}

struct LoadNotes: AsyncCommand {
    func execute(_ context: CommandContext<Notes>) async throws -> Int {
        await Task.yield()
        try await context.mutate { $0.notes += ["a", "b"] }
        return 2
    }
}

/// Collects failure messages instead of failing the test, so tests can check them.
final class Failures: Sendable {
    private let messages = Locked([String]())
    var all: [String] { messages.withLock { $0 } }
    var reporter: FailureReporter { FailureReporter { message, _ in self.messages.withLock { $0.append(message) } } }
}

@Suite("CommandTester")
struct CommandTesterTests {
    @Test("asserting the exact change of sync and async commands passes")
    func exactChanges() async throws {
        let tester = CommandTester(Notes())
        try tester.execute(AddNote(text: "hello")) { $0.notes = ["hello"] }
        let loaded = try await tester.run(LoadNotes()) { $0.notes += ["a", "b"] }
        #expect(loaded == 2)
        try await tester.undo { $0.notes = ["hello"] }
        try await tester.redo { $0.notes = ["hello", "a", "b"] }
        tester.finish()
    }

    @Test("a wrong expectation fails the test with a diff")
    func wrongExpectation() throws {
        let failures = Failures()
        let tester = CommandTester(Notes(), reporter: failures.reporter)
        try tester.execute(AddNote(text: "hello")) { $0.notes = ["goodbye"] }
        let message = try #require(failures.all.first)
        #expect(message.contains("AddNote changed the model differently than expected"))
        #expect(message.contains("− ") && message.contains("+ "))
        #expect(message.contains("\"goodbye\"") && message.contains("\"hello\""))
    }

    @Test("a wrong expectation records a Swift Testing issue by default")
    func recordsIssue() throws {
        let tester = CommandTester(Notes())
        withKnownIssue {
            try tester.execute(AddNote(text: "x")) { $0.notes = [] }
        }
    }

    @Test("a change made by a command queued from an observer must be received")
    func indirectChangeMustBeReceived() async throws {
        let failures = Failures()
        let tester = CommandTester(Notes(), reporter: failures.reporter)
        let observation = tester.store.observe { [runner = tester.runner] change in
            if change.command is AddNote { runner.run(CountNotes()) { _ in } }
        }
        try tester.execute(AddNote(text: "a")) { $0.notes = ["a"] }
        try await tester.receive(CountNotes.self) { $0.count = 1 }
        tester.finish()
        #expect(failures.all.isEmpty)

        try tester.execute(AddNote(text: "b")) { $0.notes.append("b") }
        tester.finish()
        #expect(failures.all.count == 1)
        #expect(
            failures.all.first?.contains("1 change(s) were not asserted at the end of the test: CountNotes") == true)
        _ = observation
    }

    @Test("an unasserted change is reported before the next command runs")
    func unassertedBeforeNext() async throws {
        let failures = Failures()
        let tester = CommandTester(Notes(), reporter: failures.reporter)
        try await tester.runner.run(AddNote(text: "behind the tester's back"))
        try tester.execute(AddNote(text: "next")) { $0.notes.append("next") }
        #expect(
            failures.all == [
                "1 change(s) were not asserted before AddNote ran: AddNote. "
                    + "Assert each with receive(_:), or the model changed in a way the test does not know."
            ])
    }

    @Test("receiving a change by the wrong command fails")
    func wrongCommandReceived() async throws {
        let failures = Failures()
        let tester = CommandTester(Notes(), reporter: failures.reporter)
        try await tester.runner.run(AddNote(text: "a"))
        try await tester.receive(CountNotes.self) { $0.notes = ["a"] }
        #expect(failures.all == ["Expected a change by CountNotes, but the next change was made by AddNote."])
    }

    @Test("a command that throws changes nothing, and the error reaches the test")
    func failingCommand() throws {
        let tester = CommandTester(Notes())
        #expect(throws: MessageError("A note needs text.")) { try tester.execute(AddNote(text: "")) }
        tester.finish()
    }

    @Test("expecting a change from a command that made none fails")
    func expectedChangeMissing() async throws {
        struct Nothing: AsyncCommand {
            func execute(_ context: CommandContext<Notes>) async throws {}
        }
        let failures = Failures()
        let tester = CommandTester(Notes(), reporter: failures.reporter)
        try await tester.run(Nothing()) { $0.count = 3 }
        #expect(failures.all.first?.hasPrefix("Nothing changed nothing, but the test expected:") == true)
    }

    @Test("a tester released with unasserted changes reports them")
    func releasedWithPendingChanges() throws {
        let failures = Failures()
        do {
            let tester = CommandTester(Notes(), reporter: failures.reporter)
            try tester.runner.execute(AddNote(text: "a"))
        }
        #expect(failures.all.count == 1)
    }
}
