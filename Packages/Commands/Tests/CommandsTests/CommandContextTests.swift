import Commands
import Errors
import Testing
import _KitSupport

@Suite("The command context")
struct CommandContextTests {
    @Test("a mutate block may read context.model without deadlocking")
    func readContextInsideMutate() async throws {
        let store = ModelStore(Counter(value: 1))
        let runner = CommandRunner(store: store, journalLimit: 1_000)
        let finished = Locked<Int?>(nil)
        let task = Task.detached {
            let value = try await runner.run(ReadsContextInsideMutate())
            finished.withLock { $0 = value }
        }
        await eventually("the command finishes") { finished.withLock { $0 } != nil }
        guard finished.withLock({ $0 }) != nil else { return }  // deadlocked: do not wait on it
        try await task.value
        #expect(finished.withLock { $0 } == 6)
        #expect(store.model.value == 6)
    }
}
