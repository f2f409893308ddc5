import Commands
import Errors

/// A small model for the behaviour tests.
struct Counter: Sendable, Equatable, Codable {
    var value = 0
    var log: [String] = []
}

/// Adds `amount`; fails on a negative amount. Returns the new value.
struct Add: Command, Codable {
    var amount: Int
    var undoBehavior: UndoBehavior = .record

    func execute(_ model: inout Counter) throws -> Int {
        guard amount >= 0 else { throw MessageError("Cannot add \(amount).") }
        model.value += amount
        return model.value
    }
}

/// Appends to the log; the empty string fails after changing the value (to prove rollback).
struct Append: Command, Codable {
    var text: String

    func execute(_ model: inout Counter) throws {
        model.value += 1000
        guard !text.isEmpty else { throw MessageError("Nothing to append.") }
        model.log.append(text)
    }
}

/// Stages `text` after waiting at `gate`, then optionally fails.
struct SlowAppend: AsyncCommand {
    var text: String
    var gate: Gate?
    var failAfterMutating = false

    func execute(_ context: CommandContext<Counter>) async throws -> String {
        await gate?.wait()
        try await context.mutate { $0.log.append(text) }
        try await context.mutate { $0.value += 1 }
        if failAfterMutating { throw MessageError("\(text) failed after staging.") }
        return text
    }
}

/// Waits until cancelled.
struct Forever: AsyncCommand {
    var started: Gate?

    func execute(_ context: CommandContext<Counter>) async throws {
        try await context.mutate { $0.log.append("forever") }
        started?.open()
        try await Task.sleep(for: .seconds(86_400))
    }
}
