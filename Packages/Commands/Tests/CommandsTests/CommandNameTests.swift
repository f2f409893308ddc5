import Commands
import Testing
import _KitSupport

/// A command's default name is `String(describing:)` of its type, whatever the type — nested,
/// generic (each specialization its own name), private — and the same however often and from
/// however many threads it is read; a command that names itself keeps its own name.
@Suite("Command names")
struct CommandNameTests {
    enum Outer {
        struct Nested: Command {
            func execute(_ model: inout Int) throws { model += 1 }
        }
    }

    struct Generic<Tag: Sendable>: Command {
        func execute(_ model: inout Int) throws { model += 1 }
    }

    private struct Hidden: Command {
        func execute(_ model: inout Int) throws { model += 1 }
    }

    struct Named: Command {
        static var commandName: String { "Rename everything" }
        func execute(_ model: inout Int) throws { model += 1 }
    }

    struct Later: AsyncCommand {
        func execute(_ context: CommandContext<Int>) async throws { try await context.mutate { $0 += 1 } }
    }

    @Test("the default name is the type's name, for every kind of type")
    func defaultNames() {
        #expect(Outer.Nested.commandName == String(describing: Outer.Nested.self))
        #expect(Outer.Nested.commandName == "Nested")
        #expect(Generic<Int>.commandName == "Generic<Int>")
        #expect(Generic<String>.commandName == "Generic<String>")
        #expect(Generic<Generic<Int>>.commandName == String(describing: Generic<Generic<Int>>.self))
        #expect(Hidden.commandName == String(describing: Hidden.self))
        #expect(Later.commandName == "Later")
        #expect(Named.commandName == "Rename everything")
    }

    @Test("changes, the journal and undo name each command by its own type")
    func namesOnTheCommitPath() async throws {
        let runner = CommandRunner(store: ModelStore(0), journalLimit: 10)
        let names = Locked<[String]>([])
        let observation = runner.store.observe { change in names.withLock { $0.append(change.name) } }
        defer { observation.cancel() }
        try await runner.run(Generic<Int>())
        try await runner.run(Generic<String>())
        try await runner.run(Named())
        try await runner.run(Later())
        try await runner.undo()
        #expect(
            names.withLock { $0 } == ["Generic<Int>", "Generic<String>", "Rename everything", "Later", "undo Later"])
        #expect(
            runner.journal.map(\.name) == ["Generic<Int>", "Generic<String>", "Rename everything", "Later", "undo"])
        #expect(runner.undoName == "Rename everything")
    }

    @Test("names read from many threads at once are all right")
    func concurrentReads() async {
        let names = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<16 {
                group.addTask { (0..<200).map { $0 % 2 == 0 ? Generic<Int>.commandName : Generic<UInt8>.commandName } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(names.count == 16 * 200)
        #expect(Set(names) == ["Generic<Int>", "Generic<UInt8>"])
    }
}
