import Commands
import Errors
import Foundation
import Testing

@Suite("Save after command")
struct SaveHookTests {
    /// Writes the model as JSON to a real file in a temporary directory.
    static func fileSaver(_ url: URL) -> CommandRunner<Counter>.SaveHook {
        { model in try JSONEncoder().encode(model).write(to: url) }
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("commands-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("the hook saves after commands that ask for it, and only those")
    func savesWhenAsked() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("model.json")
        let runner = CommandRunner(store: ModelStore(Counter()), journalLimit: 1_000, save: Self.fileSaver(file))
        try runner.execute(Add(amount: 1))
        #expect(!FileManager.default.fileExists(atPath: file.path))
        try runner.execute(Add(amount: 2, savesModel: true))
        let saved = try JSONDecoder().decode(Counter.self, from: Data(contentsOf: file))
        #expect(saved.value == 3)
    }

    @Test("a failed save is reported to the caller, and the change stays in memory")
    func failedSaveIsReported() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("missing-folder/model.json")
        let store = ModelStore(Counter())
        let runner = CommandRunner(store: store, journalLimit: 1_000, save: Self.fileSaver(file))
        do {
            try runner.execute(Add(amount: 5, savesModel: true))
            Issue.record("The save should have failed.")
        } catch let error as CommandError {
            guard case .saveFailed(let command, let underlying) = error else {
                Issue.record("Expected saveFailed, got \(error)")
                return
            }
            #expect(command == "Add")
            #expect(error.underlyingError != nil)
            #expect(error.message.hasPrefix("Add changed the model, but saving it failed: "))
            _ = underlying
        }
        #expect(store.model.value == 5)
        #expect(runner.journal.last?.outcome.appliedChanges == true)

        struct SavingAsync: AsyncCommand {
            var savesModel: Bool { true }
            func execute(_ context: CommandContext<Counter>) async throws { try await context.mutate { $0.value = 9 } }
        }
        await #expect(throws: CommandError.self) { try await runner.run(SavingAsync()) }
        #expect(store.model.value == 9)
    }
}
