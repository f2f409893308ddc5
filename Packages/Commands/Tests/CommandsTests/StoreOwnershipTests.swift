import Commands
import Errors
import Testing

@Suite("A store takes changes from its own runner only")
struct StoreOwnershipTests {
    @Test("a second runner for a store cannot change it, so nothing goes around the first runner's save step")
    func secondRunnerIsRefused() async throws {
        let file = try SavedFile<Counter>()
        defer { file.remove() }
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, save: file.step)
        let bypass = CommandRunner(store: store)
        #expect(throws: CommandError.foreignStore(command: "Add")) { try bypass.execute(Add(amount: 1)) }
        await #expect(throws: CommandError.foreignStore(command: "Add")) { try await bypass.run(Add(amount: 1)) }
        await #expect(throws: CommandError.foreignStore(command: "SlowAppend")) {
            try await bypass.run(SlowAppend(text: "x"))
        }
        await #expect(throws: CommandError.foreignStore(command: "undo")) { try await bypass.undo() }
        #expect(store.model == Counter())
        try runner.execute(Add(amount: 2))
        #expect(try file.load()?.value == 2)
    }

    @Test("once its runner is gone, a store can be given to a new one")
    func released() throws {
        let store = ModelStore(Counter())
        do {
            let first = CommandRunner(store: store)
            try first.execute(Add(amount: 1))
        }
        let second = CommandRunner(store: store)
        try second.execute(Add(amount: 1))
        #expect(store.model.value == 2)
    }
}
