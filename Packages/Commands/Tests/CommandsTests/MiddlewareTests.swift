import Commands
import Errors
import Testing
import _KitSupport

/// Records what it sees; vetoes commands named in `refuse`.
struct Recorder: CommandMiddleware {
    let label: String
    let events: Locked<[String]>
    var refuse: Set<String> = []

    func willRun(_ command: CommandInfo, model: Counter) throws {
        events.withLock { $0.append("\(label) will \(command.name) at \(model.value)") }
        if refuse.contains(command.name) { throw MessageError("\(command.name) is not allowed.") }
    }

    func didRun(_ command: CommandInfo, outcome: CommandOutcome, duration: Duration, model: Counter) {
        events.withLock { $0.append("\(label) did \(command.name) \(outcome) at \(model.value)") }
    }
}

@Suite("Middleware")
struct MiddlewareTests {
    @Test("the chain runs in order before a command and in reverse after it")
    func order() throws {
        let events = Locked<[String]>([])
        let runner = CommandRunner(
            store: ModelStore(Counter()),
            middleware: [Recorder(label: "outer", events: events), Recorder(label: "inner", events: events)])
        try runner.execute(Add(amount: 2))
        #expect(
            events.withLock { $0 } == [
                "outer will Add at 0", "inner will Add at 0", "inner did Add succeeded at 2",
                "outer did Add succeeded at 2",
            ])
    }

    @Test("a middleware can veto a sync or async command, which leaves the model untouched")
    func veto() async throws {
        let events = Locked<[String]>([])
        let store = ModelStore(Counter())
        let runner = CommandRunner(
            store: store, journalLimit: 1_000,
            middleware: [Recorder(label: "guard", events: events, refuse: ["Add", "SlowAppend"])])
        #expect(
            throws: CommandError.vetoed(command: "Add", middleware: "Recorder", reason: "Add is not allowed.")
        ) { try runner.execute(Add(amount: 1)) }
        await #expect(throws: CommandError.self) { try await runner.run(SlowAppend(text: "x")) }
        #expect(store.model == Counter())
        #expect(runner.journal.map(\.outcome).allSatisfy { if case .vetoed = $0 { true } else { false } })
        #expect(runner.journal.count == 2)
    }

    @Test("middleware sees failures too")
    func failures() throws {
        let events = Locked<[String]>([])
        let runner = CommandRunner(
            store: ModelStore(Counter()), journalLimit: 1_000, middleware: [Recorder(label: "log", events: events)])
        #expect(throws: MessageError.self) { try runner.execute(Add(amount: -1)) }
        #expect(events.withLock { $0 }.last?.hasPrefix("log did Add failed") == true)
    }
}
