import Commands
import Errors
import Testing
import _KitSupport

@Suite("Sync commands")
struct SyncCommandTests {
    @Test("execute applies the change and returns the command's typed result")
    func typedResult() throws {
        let runner = CommandRunner(store: ModelStore(Counter()))
        let value = try runner.execute(Add(amount: 3))
        #expect(value == 3)
        #expect(runner.store.model.value == 3)
    }

    @Test("a command that throws leaves the model exactly as before", arguments: ["", "x"])
    func allOrNothing(text: String) throws {
        let store = ModelStore(Counter(value: 1, log: ["a"]))
        let runner = CommandRunner(store: store)
        if text.isEmpty {
            #expect(throws: MessageError("Nothing to append.")) { try runner.execute(Append(text: text)) }
            #expect(store.model == Counter(value: 1, log: ["a"]))
        } else {
            try runner.execute(Append(text: text))
            #expect(store.model == Counter(value: 1001, log: ["a", "x"]))
        }
    }

    @Test("a batch applies its children in order, or none of them when one throws")
    func batch() throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        try runner.execute(CommandBatch([Add(amount: 1), Add(amount: 2)]))
        #expect(store.model.value == 3)
        #expect(throws: MessageError.self) {
            try runner.execute(CommandBatch([Add(amount: 5), Add(amount: -1), Add(amount: 7)]))
        }
        #expect(store.model.value == 3)
    }

    @Test("run with a completion reports the result on the main actor")
    func completion() async {
        let runner = CommandRunner(store: ModelStore(Counter()))
        let result = await withCheckedContinuation { continuation in
            runner.run(Add(amount: 4)) { result in
                MainActor.assertIsolated()
                continuation.resume(returning: result)
            }
        }
        #expect((try? result.get()) == 4)
    }

    @Test("observers see every change in order with the old and new model")
    func observersSeeChanges() throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        let seen = Locked<[(Int, Int, String)]>([])
        let observation = store.observe { change in
            seen.withLock { $0.append((change.old.value, change.new.value, change.name)) }
        }
        try runner.execute(Add(amount: 1))
        try runner.execute(Add(amount: 2))
        #expect(seen.withLock { $0 }.map(\.0) == [0, 1])
        #expect(seen.withLock { $0 }.map(\.1) == [1, 3])
        #expect(seen.withLock { $0 }.map(\.2) == ["Add", "Add"])
        observation.cancel()
        try runner.execute(Add(amount: 3))
        #expect(seen.withLock { $0 }.count == 2)
    }

    @Test("a command started from an observer is queued FIFO after every observer saw the change")
    func reentrantRunIsQueued() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        let events = Locked<[String]>([])
        let first = store.observe { change in
            events.withLock { $0.append("first saw \(change.new.value)") }
            if change.new.value == 1 {
                runner.run(Add(amount: 10)) { _ in }
                runner.run(Add(amount: 100)) { _ in }
            }
        }
        let second = store.observe { change in
            events.withLock { $0.append("second saw \(change.new.value)") }
        }
        try runner.execute(Add(amount: 1))
        #expect(store.model.value == 111)
        #expect(
            events.withLock { $0 } == [
                "first saw 1", "second saw 1", "first saw 11", "second saw 11", "first saw 111", "second saw 111",
            ])
        _ = (first, second)
    }

    @Test("execute from inside an observer is refused with a typed error, and nothing is lost")
    func reentrantExecuteIsRefused() throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        let errors = Locked<[CommandError]>([])
        let observation = store.observe { change in
            guard change.new.value == 1 else { return }
            do {
                try runner.execute(Add(amount: 10))
            } catch let error as CommandError {
                errors.withLock { $0.append(error) }
            } catch {}
        }
        try runner.execute(Add(amount: 1))
        #expect(store.model.value == 1)
        let error = try #require(errors.withLock { $0 }.first)
        guard case .reentrantExecute(let name) = error else {
            Issue.record("Expected reentrantExecute, got \(error)")
            return
        }
        #expect(name == "Add")
        #expect(error.message.contains("run(_:completion:)"))
        _ = observation
    }

    @Test("a read closure sees one snapshot")
    func readSnapshot() throws {
        let store = ModelStore(Counter(value: 5))
        let doubled = store.read { $0.value * 2 }
        #expect(doubled == 10)
    }

    // Exit tests need Swift 6.2; the package itself builds with 6.0.
    #if DEBUG && compiler(>=6.2)
        @Test("starting a command from inside a read closure traps in debug builds")
        func mutationInsideReadTraps() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let store = ModelStore(Counter())
                let runner = CommandRunner(store: store)
                store.read { _ in _ = try? runner.execute(Add(amount: 1)) }
            }
            let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(output.contains("Commands: Add was started from inside ModelStore.read { }."))
        }
    #endif
}
