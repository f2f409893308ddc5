import Operations
import Testing

// What the snippet assumes exists.
private struct Session: Sendable { var token: String }
private struct Message: Sendable { var text: String }
private struct API: Sendable {
    func messages() async throws -> [Message] { [Message(text: "Hello")] }
}
private let api = API()
private let email = "me@email.com"
private let password = "1234"
private func validateLogin(email: String, password: String) async throws -> Session {
    Session(token: "\(email):\(password.count)")
}
private let fetchUser = StatefulOperation { "user-1" }
private let fetchAvatar = StatefulOperation { [UInt8](repeating: 0, count: 4) }

@Suite("The README snippet")
struct ReadmeSnippetTests {
    // The snippet keeps the spacing, byte for byte, so formatting skips this test.
    // swift-format-ignore
    @Test("compiles unchanged and runs to the end")
    @MainActor
    func snippetRuns() async throws {
        // The snippet from the issue and the README, unchanged:
        let op = StatefulOperation {                       // any async throwing closure
            try await validateLogin(email: email, password: password)
        }
        .onStart   { print("start") }                       // callbacks run on the main actor by default
        .onReturn  { print("return") }                      // after the work returns, before success/fail
        .onSuccess { session in print("ok", session) }
        .onFail    { error in print(error.userMessage) }
        .onFinish  { outcome in print(outcome) }            // .succeeded(value) / .failed(error) / .cancelled
        op.start()                                          // fire and forget
        let session = try await op.value                    // or await the result
        op.cancel()

        let runner = OperationRunner(maxConcurrent: 4)
        runner.add(fetchUser)
        runner.add(fetchAvatar, after: fetchUser)           // dependency
        await runner.waitUntilIdle()

        let screen = LoadingModel(load: { try await api.messages() }, isEmpty: { $0.isEmpty })
        await screen.load()                                 // state: .idle → .loading → .loaded(v) | .empty | .failed(e)
        await screen.retry()
        // End of the snippet; what it did:
        #expect(session.token == "me@email.com:4")
        #expect(op.isFinished && !op.isCancelled)
        #expect(fetchUser.isFinished && fetchAvatar.isFinished)
        #expect(screen.state.value?.first?.text == "Hello")
    }
}
