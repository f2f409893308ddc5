import Commands
import Testing
import _KitSupport

@Suite("Model store")
struct ModelStoreTests {
    @Test("changes delivers every change, in order, to each subscriber")
    func changesStream() async throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        let first = store.changes
        let second = store.changes
        for amount in 1...3 { try runner.execute(Add(amount: amount)) }
        for stream in [first, second] {
            var values: [Int] = []
            for await change in stream {
                values.append(change.new.value)
                #expect(change.command is Add)
                if values.count == 3 { break }
            }
            #expect(values == [1, 3, 6])
        }
    }

    @Test("readers on other threads always see a whole snapshot")
    func consistentSnapshots() async throws {
        struct Pair: Sendable, Equatable { var a = 0, b = 0 }
        struct Bump: Command {
            func execute(_ model: inout Pair) throws {
                model.a += 1
                model.b -= 1
            }
        }
        let store = ModelStore(Pair())
        let runner = CommandRunner(store: store, undoLimit: 0, journalLimit: 0)
        let torn = try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                for _ in 0..<5_000 { try runner.execute(Bump()) }
                return 0
            }
            for _ in 0..<2 {
                group.addTask {
                    var torn = 0
                    for _ in 0..<5_000 where store.model.a != -store.model.b {
                        let snapshot = store.model
                        if snapshot.a != -snapshot.b { torn += 1 }
                    }
                    return torn
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(torn == 0)
        #expect(store.model == Pair(a: 5_000, b: -5_000))
    }

    @Test("a released observation stops observing")
    func releasedObservation() throws {
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store)
        let count = Locked(0)
        var observation: ChangeObservation? = store.observe { _ in count.withLock { $0 += 1 } }
        try runner.execute(Add(amount: 1))
        _ = observation
        observation = nil
        try runner.execute(Add(amount: 1))
        #expect(count.withLock { $0 } == 1)
    }
}
