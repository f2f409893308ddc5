import Commands
import Errors
import Foundation
import Testing
import _KitSupport

/// Selects without saving: UI state.
struct Select: Command, TransientCommand {
    var text: String
    func execute(_ model: inout Counter) throws { model.log.append("selected \(text)") }
}

@Suite("Saved, then announced")
struct SaveBeforeAnnounceTests {
    @Test("every change is on disk before an observer hears of it, and before execute returns")
    func savedBeforeAnnounced() async throws {
        let file = try SavedFile<Counter>()
        defer { file.remove() }
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, save: file.step)
        let onDisk = Locked<[Int?]>([])
        let observation = store.observe { _ in onDisk.withLock { $0.append((try? file.load())?.value) } }
        try runner.execute(Add(amount: 1))
        #expect(try file.load()?.value == 1)
        try await runner.run(Add(amount: 2))
        try await runner.run(SlowAppend(text: "a"))
        try await runner.undo()
        #expect(onDisk.withLock { $0 } == [1, 3, 4, 3])
        #expect(try file.load() == store.model)
        #expect(file.saves.withLock { $0 } == 4)
        observation.cancel()
    }

    @Test("a transient command is announced at once and not saved; the next save writes it")
    func transientIsNotSaved() async throws {
        let file = try SavedFile<Counter>()
        defer { file.remove() }
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, save: file.step)
        let heard = Locked(0)
        let observation = store.observe { _ in heard.withLock { $0 += 1 } }
        try runner.execute(Select(text: "a"))
        #expect(heard.withLock { $0 } == 1)
        #expect(file.saves.withLock { $0 } == 0)
        try runner.execute(Add(amount: 1))
        #expect(try file.load() == Counter(value: 1, log: ["selected a"]))
        observation.cancel()
    }

    @Test("a transient command after a change that waits for its save is announced with it")
    func transientWaitsBehindUnsavedChange() async throws {
        let held = HeldSave<Counter>()
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, save: held.step)
        let heard = Locked<[String]>([])
        let observation = store.observe { change in heard.withLock { $0.append(change.name) } }
        let add = Task { try await runner.run(Add(amount: 1)) }
        await eventually("the save of Add started") { held.calls.withLock { $0 }.count == 1 }
        let select = Task { try await runner.run(Select(text: "a")) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(heard.withLock { $0 }.isEmpty)
        held.gate.open()
        _ = try await add.value
        try await select.value
        #expect(heard.withLock { $0 } == ["Add", "Select"])
        observation.cancel()
    }

    @Test("while a change waits for its save, readers see the model before it")
    func readersSeeAnnouncedModel() async throws {
        let held = HeldSave<Counter>()
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, save: held.step)
        let add = Task { try await runner.run(Add(amount: 5)) }
        await eventually("the save started") { held.calls.withLock { $0 }.count == 1 }
        #expect(held.calls.withLock { $0 }.first?.value == 5)
        #expect(store.model.value == 0)
        held.gate.open()
        #expect(try await add.value == 5)
        #expect(store.model.value == 5)
    }

    @Test("a slow async command does not hold back the announcement of a sync command run meanwhile")
    func slowAsyncDoesNotDelayOthers() async throws {
        let file = try SavedFile<Counter>()
        defer { file.remove() }
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, save: file.step)
        let heard = Locked<[String]>([])
        let observation = store.observe { change in heard.withLock { $0.append(change.name) } }
        let gate = Gate()
        let slow = Task { try await runner.run(SlowAppend(text: "slow", gate: gate)) }
        try runner.execute(Add(amount: 1))
        #expect(heard.withLock { $0 } == ["Add"])
        #expect(try file.load()?.value == 1)
        gate.open()
        _ = try await slow.value
        #expect(heard.withLock { $0 } == ["Add", "SlowAppend"])
        observation.cancel()
    }
}
