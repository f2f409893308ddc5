import Commands
import Errors
import Foundation
import Testing
import _KitSupport

@Suite("Group commit")
struct GroupCommitTests {
    @Test("changes made while a save runs are saved together by the next one, and each caller returns after its own")
    func changesShareTheNextSave() async throws {
        let held = HeldSave<Counter>()
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, save: held.step)
        let returned = Locked(0)
        let first = Task {
            try await runner.run(Add(amount: 1))
            returned.withLock { $0 += 1 }
        }
        await eventually("the first save started") { held.calls.withLock { $0 }.count == 1 }
        let others = (2...11).map { amount in
            Task {
                try await runner.run(Add(amount: amount))
                returned.withLock { $0 += 1 }
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(returned.withLock { $0 } == 0)
        held.gate.open()
        try await first.value
        for task in others { try await task.value }
        #expect(held.calls.withLock { $0 }.map(\.value) == [1, 66])
        #expect(store.model.value == 66)
        #expect(returned.withLock { $0 } == 11)
    }

    @Test("when a group's save fails, every change in it and built on it is rolled back, and earlier ones stay")
    func failedGroupRollsBackTogether() async throws {
        let held = HeldSave<Counter>(failFrom: 1)
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 100, save: held.step)
        let heard = Locked<[Int]>([])
        let observation = store.observe { change in heard.withLock { $0.append(change.new.value) } }
        let first = Task { try await runner.run(Add(amount: 1)) }
        await eventually("the first save started") { held.calls.withLock { $0 }.count == 1 }
        let group = (2...6).map { amount in Task { try await runner.run(Add(amount: amount)) } }
        let undo = Task {
            try await Task.sleep(for: .milliseconds(20))
            try await runner.undo()
        }
        try await Task.sleep(for: .milliseconds(60))
        held.gate.open()
        #expect(try await first.value == 1)
        for task in group {
            await #expect(throws: CommandError.self) { try await task.value }
        }
        await #expect(throws: CommandError.self) { try await undo.value }
        #expect(store.model.value == 1)
        #expect(heard.withLock { $0 } == [1])
        #expect(runner.undoName == "Add")
        #expect(!runner.canRedo)
        #expect(runner.journal.map(\.name) == ["Add"])
        observation.cancel()
    }

    @Test("an async command reads the announced model, and its staged change lands on top of the saved one")
    func asyncCommandStagesOnAnnouncedModel() async throws {
        struct ReadThenAdd: AsyncCommand {
            func execute(_ context: CommandContext<Counter>) async throws {
                let seen = context.model.value
                try await context.mutate { model in
                    model.log.append("saw \(seen)")
                    model.value += 10
                }
            }
        }
        let held = HeldSave<Counter>()
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, save: held.step)
        let first = Task { try await runner.run(Add(amount: 1)) }
        await eventually("the first save started") { held.calls.withLock { $0 }.count == 1 }
        let reader = Task { try await runner.run(ReadThenAdd()) }
        try await Task.sleep(for: .milliseconds(20))
        held.gate.open()
        _ = try await first.value
        try await reader.value
        #expect(store.model == Counter(value: 11, log: ["saw 0"]))
        #expect(held.calls.withLock { $0 }.map(\.value) == [1, 11])
    }

    @Test("execute on a runner with an async save step is refused, and changes nothing")
    func executeNeedsAwait() async throws {
        let held = HeldSave<Counter>()
        held.gate.open()
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, save: held.step)
        #expect(throws: CommandError.asyncSaveNeedsAwait(command: "Add")) { try runner.execute(Add(amount: 1)) }
        #expect(store.model.value == 0)
        try await runner.run(Add(amount: 1))
        #expect(store.model.value == 1)
    }

    @Test("200 concurrent commands: the file holds the final model, observers hear each change once, in order")
    func manyConcurrentCommands() async throws {
        let file = try SavedFile<Counter>()
        defer { file.remove() }
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, save: file.step)
        let heard = Locked<[ModelChange<Counter>]>([])
        let observation = store.observe { change in heard.withLock { $0.append(change) } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    switch index % 3 {
                    case 0: try runner.execute(Append(text: "\(index)"))
                    case 1: try await runner.run(Append(text: "\(index)"))
                    default: try await runner.run(SlowAppend(text: "\(index)"))
                    }
                }
            }
            try await group.waitForAll()
        }
        let changes = heard.withLock { $0 }
        #expect(changes.count == 200)
        #expect(zip(changes, changes.dropFirst()).allSatisfy { $0.new == $1.old })
        #expect(Set(store.model.log) == Set((0..<200).map(String.init)))
        #expect(store.model.log.count == 200)
        #expect(try file.load() == store.model)
        // How many changes share a save depends on scheduling (the test above proves grouping
        // deterministically); here it is enough that no change is saved twice.
        #expect(file.saves.withLock { $0 } <= 200, "saves: \(file.saves.withLock { $0 })")
        observation.cancel()
    }
}
