import Commands
import CommandsTesting
import Foundation
import Testing

/// A model with more going on than a flow test cares about.
struct Session: Sendable, Equatable {
    var user: String?
    var inbox: [String] = []
    var lastSync = 0
}

struct SignIn: Command, Codable {
    var user: String
    func execute(_ model: inout Session) throws {
        model.user = user
        model.lastSync += 1
    }
}

struct Receive: Command, Codable {
    var message: String
    func execute(_ model: inout Session) throws {
        model.inbox.append(message)
        model.lastSync += 1
    }
}

@Suite("CommandTester, non-exhaustive")
struct NonExhaustiveTests {
    @Test("asserts only the values the test names; other changed values pass")
    func namedValuesOnly() throws {
        let failures = Failures()
        let tester = CommandTester(Session(), exhaustivity: .off, reporter: failures.reporter)
        try tester.execute(SignIn(user: "ana")) { $0.user = "ana" }
        tester.finish()
        #expect(failures.all.isEmpty)
    }

    @Test("a named value that differs still fails, with the diff")
    func namedValueDiffers() throws {
        let failures = Failures()
        let tester = CommandTester(Session(), exhaustivity: .off, reporter: failures.reporter)
        try tester.execute(SignIn(user: "ana")) { $0.user = "bob" }
        #expect(failures.all.count == 1)
        #expect(failures.all.first?.contains("bob") == true)
        #expect(failures.all.first?.contains("ana") == true)
    }

    @Test("the same partial assertion fails exhaustively: the test must name every change")
    func exhaustiveNeedsEverything() throws {
        let failures = Failures()
        let tester = CommandTester(Session(), reporter: failures.reporter)
        try tester.execute(SignIn(user: "ana")) { $0.user = "ana" }
        #expect(failures.all.count == 1)
        #expect(failures.all.first?.contains("lastSync") == true)
    }

    @Test("receive skips changes by other commands until one by the named command")
    func receiveSkips() async throws {
        let failures = Failures()
        let tester = CommandTester(Session(), exhaustivity: .off, reporter: failures.reporter)
        try tester.runner.execute(SignIn(user: "ana"))
        try tester.runner.execute(Receive(message: "hi"))
        try tester.runner.execute(SignIn(user: "bob"))
        try await tester.receive(Receive.self) { $0.inbox = ["hi"] }
        try await tester.receive(SignIn.self) { $0.user = "bob" }
        #expect(tester.unassertedChanges.isEmpty)
        tester.finish()
        #expect(failures.all.isEmpty)
    }

    @Test("receive still fails when the named command never changes the model")
    func receiveNothing() async throws {
        let failures = Failures()
        let tester = CommandTester(Session(), exhaustivity: .off, reporter: failures.reporter)
        try tester.runner.execute(SignIn(user: "ana"))
        try await tester.receive(Receive.self, timeout: .milliseconds(20)) { $0.inbox = ["hi"] }
        #expect(failures.all == ["Expected a change by Receive, but none happened within 0.02 seconds."])
    }

    @Test("unasserted changes are neither reported before the next step, at finish, nor on release")
    func unassertedIsFine() throws {
        let failures = Failures()
        do {
            let tester = CommandTester(Session(), exhaustivity: .off, reporter: failures.reporter)
            try tester.runner.execute(SignIn(user: "ana"))
            try tester.execute(Receive(message: "hi")) { $0.inbox = ["hi"] }
            try tester.runner.execute(Receive(message: "again"))
        }
        #expect(failures.all.isEmpty)
    }

    @Test("exhaustivity can be switched between steps: a loose setup, then an exact step")
    func switchBetweenSteps() throws {
        let failures = Failures()
        let tester = CommandTester(Session(), exhaustivity: .off, reporter: failures.reporter)
        try tester.execute(SignIn(user: "ana")) { $0.user = "ana" }
        tester.exhaustivity = .on
        try tester.execute(Receive(message: "hi")) { $0.inbox = ["hi"] }  // misses lastSync
        #expect(failures.all.count == 1)
        try tester.execute(Receive(message: "yo")) {
            $0.inbox.append("yo")
            $0.lastSync += 1
        }
        tester.finish()
        #expect(failures.all.count == 1)
    }
}
