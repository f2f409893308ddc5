// swift-format-ignore-file
// (The snippet below is kept byte for byte, alignment included.)
import Boilerplate
import Foundation
import Observation
import Testing

/// What the snippet printed.
private final class Printed: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

private let printed = Printed()

private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    printed.append(items.map { String(describing: $0) }.joined(separator: separator))
}

// The snippet, unchanged, inside a function so the test can run it.
private struct Doc: Codable, Sendable, Equatable { var title = ""; var notes: [String] = [] }
private struct Rename: Command { var title: String; func execute(_ m: inout Doc) throws { m.title = title } }
private struct AddNote: Command { var text: String; func execute(_ m: inout Doc) throws { m.notes.append(text) } }

private func snippet() async throws {
    let app = try await AppCore(model: Doc())
    withObservationTracking { _ = app.state.notes } onChange: { print("notes changed") }
    try await app.run(Rename(title: "Groceries"))    // prints nothing: the view read only `notes`
    try await app.run(AddNote(text: "milk"))         // prints "notes changed" (once)

    let token = app.store.observe(\.notes) { old, new in print(old.count, "→", new.count) }
    try await app.run(Rename(title: "Shopping"))     // not called
    try await app.run(AddNote(text: "eggs"))         // prints "1 → 2"
    token.cancel()
}

@Test("the Observation snippet compiles unchanged and prints exactly what its comments say")
func observationSnippet() async throws {
    try await snippet()
    #expect(printed.all == ["notes changed", "1 → 2"])
}
