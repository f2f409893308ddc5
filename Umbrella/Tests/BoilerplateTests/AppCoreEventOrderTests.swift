import Foundation
import Testing
import _KitSupport

@testable import Boilerplate

/// Appends after waiting at a gate: a slow async command.
struct SlowNote: AsyncCommand {
    var text: String
    var gate: AsyncGate

    func execute(_ context: CommandContext<Notebook>) async throws {
        await gate.wait()
        try await context.mutate { $0.notes.append(text) }
    }
}

/// A one-shot gate tasks wait at until the test opens it.
final class AsyncGate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if isOpen { continuation.resume() }
        }
    }
}

@Suite("AppCore: events follow saves, in commit order")
struct AppCoreEventOrderTests {
    @Test("200 concurrent commands: the file holds the final model; events come once each, in commit order")
    func concurrentCommands() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        let app = try await AppCore(model: Notebook(), persistence: folder.persistence)
        let heard = Heard<ModelDidChange<Notebook>>()
        let token = app.bus.watch(ModelDidChange<Notebook>.self) { heard.append($0) }
        defer { token.cancel() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 { group.addTask { try await app.run(AddNoteText(text: "note \(index)")) } }
            try await group.waitForAll()
        }
        let events = heard.all
        #expect(app.model.notes.count == 200)
        #expect(events.count == 200)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.new == $1.old })
        #expect(events.last?.new == app.model)
        let saved = try #require(app.fileStore).load(Notebook.self, from: "notes.json")
        #expect(saved == app.model)
    }

    @Test("a slow async command does not delay the event of a command run meanwhile")
    func slowCommandDoesNotHoldOthersBack() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        let app = try await AppCore(model: Notebook(), persistence: folder.persistence)
        let heard = Heard<String>()
        let token = app.bus.watch(ModelDidChange<Notebook>.self) { heard.append($0.command) }
        defer { token.cancel() }
        let gate = AsyncGate()
        let slow = Task { try await app.run(SlowNote(text: "slow", gate: gate)) }
        try await app.run(AddNoteText(text: "quick"))
        #expect(heard.all == ["AddNoteText"])
        gate.open()
        try await slow.value
        #expect(heard.all == ["AddNoteText", "SlowNote"])
        #expect(app.model.notes == ["quick", "slow"])
    }
}
