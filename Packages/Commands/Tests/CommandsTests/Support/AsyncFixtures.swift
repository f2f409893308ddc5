import Commands
import Errors

/// Waits at `gate` without honouring cancellation: a command that "runs forever" and ignores
/// being cancelled (a stubborn network call, a continuation nobody resumes).
struct Stubborn: AsyncCommand {
    var started: Gate
    var gate: Gate

    func execute(_ context: CommandContext<Counter>) async throws -> Int {
        try await context.mutate { $0.log.append("stubborn") }
        started.open()
        await gate.wait()
        return 1
    }
}

/// Reads the context's view of the model from inside its own `mutate` block.
struct ReadsContextInsideMutate: AsyncCommand {
    func execute(_ context: CommandContext<Counter>) async throws -> Int {
        try await context.mutate { model in
            model.value = context.model.value + 5
            return model.value
        }
    }
}

/// Stages a change, then fails.
struct StageThenFail: AsyncCommand {
    func execute(_ context: CommandContext<Counter>) async throws {
        try await context.mutate { $0.value += 1 }
        try await context.mutate { $0.log.append("staged") }
        throw MessageError("StageThenFail failed after staging.")
    }
}
