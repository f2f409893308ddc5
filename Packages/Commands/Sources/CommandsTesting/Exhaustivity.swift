/// How much of each change a ``CommandTester`` makes the test assert.
///
/// Exhaustive testing (the default) catches every change nobody expected, which is what a unit
/// test of one command wants. A test of a flow through many commands — an integration test, a
/// replayed user session — often cares about a few fields only; asserting everything else
/// makes it brittle. Non-exhaustive testing asserts only what the test names:
///
/// ```swift
/// let tester = CommandTester(AppModel(), exhaustivity: .off)
/// try tester.execute(SignIn(user: "ana")) { $0.user = "ana" }   // other fields may change too
/// try await tester.receive(LoadInbox.self) { $0.inbox.count = 3 } // earlier changes are skipped
/// tester.finish()                                                // unasserted changes are fine
/// ```
public enum Exhaustivity: Sendable, Hashable {
    /// Every change must be asserted, entirely: the expected model must equal the actual one,
    /// and a change nobody asserted fails the test.
    case on

    /// Only what the test names is asserted.
    ///
    /// The expectation closure is applied to the model *after* the change: the assertion holds
    /// when that leaves it unchanged, i.e. when every value the closure sets is already the
    /// actual value. Write expectations as assignments (`$0.count = 3`), not as edits relative to
    /// the old model (`$0.count += 1`). ``CommandTester/receive(_:timeout:fileID:filePath:line:column:_:)``
    /// skips changes by other commands until it finds one by the named command, and changes
    /// nobody asserted are not failures.
    case off
}
