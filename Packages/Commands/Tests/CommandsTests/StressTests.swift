import Commands
import Testing
import _KitSupport

/// Per task: how many commands it applied and an order-sensitive checksum of their sequence
/// numbers. Updating it is O(1), so the test measures the runner, not array copies.
struct Tallies: Sendable, Equatable {
    var total = 0
    var counts = [Int](repeating: 0, count: StressTests.tasks)
    var checksums = [Int](repeating: 17, count: StressTests.tasks)

    mutating func apply(task: Int, sequence: Int) {
        total += 1
        counts[task] += 1
        checksums[task] = checksums[task] &* 31 &+ sequence
    }
}

struct Tally: Command {
    var task: Int
    var sequence: Int
    func execute(_ model: inout Tallies) throws { model.apply(task: task, sequence: sequence) }
}

struct AsyncTally: AsyncCommand {
    var task: Int
    var sequence: Int
    func execute(_ context: CommandContext<Tallies>) async throws {
        await Task.yield()
        try await context.mutate { $0.apply(task: task, sequence: sequence) }
    }
}

@Suite("Stress")
struct StressTests {
    static let tasks = 8
    static let commandsPerTask = 10_000

    @Test("8 tasks × 10 000 mixed commands apply serially and losslessly")
    func mixedCommands() async throws {
        let store = ModelStore(Tallies())
        let runner = CommandRunner(store: store)
        let violations = Locked(0)
        let seen = Locked(0)
        let observation = store.observe { change in
            seen.withLock { $0 += 1 }
            // Serial: every change builds on the one before, one command at a time.
            if change.new.total != change.old.total + 1 { violations.withLock { $0 += 1 } }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    for sequence in 0..<Self.commandsPerTask {
                        switch sequence % 3 {
                        case 0: try runner.execute(Tally(task: task, sequence: sequence))
                        case 1: try await runner.run(Tally(task: task, sequence: sequence))
                        default: try await runner.run(AsyncTally(task: task, sequence: sequence))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        var sequential = Tallies()
        for task in 0..<Self.tasks {
            for sequence in 0..<Self.commandsPerTask { sequential.apply(task: task, sequence: sequence) }
        }
        #expect(store.model == sequential)
        #expect(seen.withLock { $0 } == Self.tasks * Self.commandsPerTask)
        #expect(violations.withLock { $0 } == 0)
        _ = observation
    }

    @Test("8 tasks × 2 000 commands and undos with a save step: every save writes the newest announced model, in order")
    func mixedCommandsWithSaves() async throws {
        let store = ModelStore(Tallies())
        let saves = Locked<[Tallies]>([])
        let runner = CommandRunner(
            store: store, undoLimit: 10, save: .sync { model in saves.withLock { $0.append(model) } })
        let announced = Locked<[Tallies]>([])
        let observation = store.observe { change in announced.withLock { $0.append(change.new) } }
        let perTask = 2_000
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    for sequence in 0..<perTask {
                        switch sequence % 4 {
                        case 0: try runner.execute(Tally(task: task, sequence: sequence))
                        case 1: try await runner.run(Tally(task: task, sequence: sequence))
                        case 2: try await runner.run(AsyncTally(task: task, sequence: sequence))
                        default: _ = try? await runner.undo()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let saved = saves.withLock { $0 }
        let models = announced.withLock { $0 }
        #expect(saved.last == store.model)
        // Group commit: fewer saves than changes.
        #expect(saved.count <= models.count)
        // Saves never go backwards: each one writes a model announced after the one before.
        var position = models.startIndex
        var inOrder = true
        for model in saved {
            guard let found = models[position...].firstIndex(of: model) else {
                inOrder = false
                break
            }
            position = found + 1
        }
        #expect(inOrder)
        // Every announced model follows the one before by one command or one undo.
        #expect(zip(models, models.dropFirst()).allSatisfy { abs($0.total - $1.total) == 1 })
        observation.cancel()
    }
}
