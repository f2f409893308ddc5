import Commands
import Errors
import Observation
import Testing
import _KitSupport

/// A document with two independent parts.
struct Doc: Codable, Sendable {
    var title = ""
    var notes: [String] = []
    var cursor = Cursor()
}

/// A value that is not Equatable.
struct Cursor: Codable, Sendable {
    var line = 0
}

struct Rename: Command {
    var title: String
    func execute(_ model: inout Doc) throws { model.title = title }
}

struct AddNote: Command {
    var text: String
    func execute(_ model: inout Doc) throws { model.notes.append(text) }
}

struct MoveCursor: Command {
    func execute(_ model: inout Doc) throws { model.cursor.line += 1 }
}

/// Counts how often `read` is invalidated, re-arming the tracking after each change the way
/// SwiftUI does when it renders again.
final class Reader: Sendable {
    let changes = Locked(0)
    private let read: @Sendable () -> Void

    init(_ read: @escaping @Sendable () -> Void) {
        self.read = read
        track()
    }

    private func track() {
        withObservationTracking(read) { [self] in
            changes.withLock { $0 += 1 }
            track()
        }
    }
}

@Suite("Observing the model by key path")
struct ObservationTests {
    @Test("a reader of notes is told when notes change, once per change, and never for the title")
    func readerOfOneProperty() throws {
        let store = ModelStore(Doc())
        let runner = CommandRunner(store: store)
        let state = store.state
        let reader = Reader { _ = state.notes }
        try runner.execute(Rename(title: "Groceries"))
        #expect(reader.changes.withLock { $0 } == 0)
        try runner.execute(AddNote(text: "milk"))
        #expect(reader.changes.withLock { $0 } == 1)
        #expect(state.notes == ["milk"])
        try runner.execute(Rename(title: "Shopping"))
        try runner.execute(AddNote(text: "eggs"))
        #expect(reader.changes.withLock { $0 } == 2)
    }

    @Test("the state is the same object every time, and shows each change once the command returns")
    func stateFollowsTheModel() async throws {
        let store = ModelStore(Doc())
        let runner = CommandRunner(store: store)
        #expect(store.state === store.state)
        try await runner.run(AddNote(text: "milk"))
        #expect(store.state.notes == ["milk"])
        #expect(store.state.model.notes == store.model.notes)
    }

    @Test("a value that is not Equatable counts as changed by every change")
    func notEquatableValue() throws {
        let store = ModelStore(Doc())
        let runner = CommandRunner(store: store)
        let state = store.state
        let reader = Reader { _ = state.cursor }
        try runner.execute(Rename(title: "a"))
        try runner.execute(MoveCursor())
        #expect(reader.changes.withLock { $0 } == 2)
    }

    @Test("a change whose save fails is rolled back and never signalled")
    func rolledBackChangeIsNotSignalled() throws {
        let store = ModelStore(Doc())
        let runner = CommandRunner(store: store, save: .sync { _ in throw MessageError("The disk is full.") })
        let state = store.state
        let reader = Reader { _ = state.notes }
        #expect(throws: CommandError.self) { try runner.execute(AddNote(text: "lost")) }
        #expect(reader.changes.withLock { $0 } == 0)
        #expect(state.notes.isEmpty)
    }

    @Test("observe(keyPath) reports old and new values only when that value changed")
    func observeKeyPath() throws {
        let store = ModelStore(Doc())
        let runner = CommandRunner(store: store)
        let seen = Locked<[String]>([])
        let token = store.observe(\.notes) { old, new in seen.withLock { $0.append("\(old.count) → \(new.count)") } }
        try runner.execute(Rename(title: "Shopping"))
        try runner.execute(AddNote(text: "eggs"))
        try runner.execute(AddNote(text: "milk"))
        token.cancel()
        try runner.execute(AddNote(text: "bread"))
        #expect(seen.withLock { $0 } == ["0 → 1", "1 → 2"])
    }
}
