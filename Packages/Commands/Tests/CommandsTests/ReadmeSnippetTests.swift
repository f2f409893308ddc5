// swift-format-ignore-file
// (The issue's snippet below is kept byte for byte, alignment included.)
import Commands
import Errors
import Foundation
import Testing
import _KitSupport

// The issue's snippet, unchanged, inside `readmeSnippet()`; the helpers it assumes are below.

struct AppModel: Sendable, Equatable { var groups: [String] = []; var tweets: [String] = [] }

struct AddGroup: Command {
    var name: String
    func execute(_ model: inout AppModel) throws {
        guard !name.isEmpty else { throw MessageError("A group needs a name.") }
        model.groups.append(name)
    }
}

struct RefreshTweets: AsyncCommand {
    var screenName: String
    func execute(_ context: CommandContext<AppModel>) async throws {
        let tweets = try await fetchTweets(screenName)     // slow work outside the model
        try await context.mutate { $0.tweets = tweets }    // writes are serialized
    }
}

func readmeSnippet() async throws {
    let store = ModelStore(AppModel())          // anyone reads; there is no public setter
    let runner = CommandRunner(store: store)
    try runner.execute(AddGroup(name: "Swift")) // synchronous: returns once the model changed
    try await runner.run(RefreshTweets(screenName: "swiftlang"))
    runner.run(AddGroup(name: "")) { result in  // completion on the main actor
        if case .failure(let error) = result { print(error.userMessage) }
    }
    print(store.model.groups)                   // read a consistent snapshot from any thread
    for await change in store.changes { print(change.command, change.old, change.new) }
    try await runner.undo(); try await runner.redo()
}

/// The snippet's slow work: a real suspension, then a result.
func fetchTweets(_ screenName: String) async throws -> [String] {
    await Task.yield()
    return ["\(screenName): hello", "\(screenName): world"]
}

/// What the snippet prints, so the test can read it.
let snippetOutput = Locked<[String]>([])

/// Shadows `Swift.print` for this module's test files, recording each line.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let line = items.map { String(describing: $0) }.joined(separator: separator)
    snippetOutput.withLock { $0.append(line) }
}

@Suite("README snippet")
struct ReadmeSnippetTests {
    @Test("the snippet compiles unchanged and runs to the end")
    func snippetRuns() async throws {
        let task = Task { try await readmeSnippet() }
        await eventually("the snippet reads the model") {
            snippetOutput.withLock { $0.contains(#"["Swift"]"#) }
        }
        await eventually("the failed command's completion runs on the main actor") {
            snippetOutput.withLock { $0.contains("A group needs a name.") }
        }
        // The `for await` waits for changes forever; cancelling the task ends it, and the
        // snippet goes on to undo and redo, which would throw if nothing had been recorded.
        task.cancel()
        try await task.value
    }

    @Test("the snippet's steps change the model as described")
    func snippetSteps() async throws {
        let store = ModelStore(AppModel())
        let runner = CommandRunner(store: store)
        try runner.execute(AddGroup(name: "Swift"))
        #expect(store.model.groups == ["Swift"])
        try await runner.run(RefreshTweets(screenName: "swiftlang"))
        #expect(store.model.tweets == ["swiftlang: hello", "swiftlang: world"])
        let message = await withCheckedContinuation { continuation in
            runner.run(AddGroup(name: "")) { result in
                if case .failure(let error) = result { continuation.resume(returning: error.userMessage) }
            }
        }
        #expect(message == "A group needs a name.")
        #expect(store.model.groups == ["Swift"])
        let changes = store.changes
        try await runner.undo()
        #expect(store.model == AppModel(groups: ["Swift"], tweets: []))
        try await runner.redo()
        #expect(store.model.tweets.count == 2)
        var iterator = changes.makeAsyncIterator()
        let undo = try #require(await iterator.next())
        #expect(undo.kind == .undo && undo.name == "undo RefreshTweets")
        #expect(undo.old.tweets.count == 2 && undo.new.tweets.isEmpty)
        let redo = try #require(await iterator.next())
        #expect(redo.kind == .redo && redo.new == store.model)
    }
}
