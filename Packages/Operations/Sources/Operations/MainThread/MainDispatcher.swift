import Foundation

/// Runs code on the main actor: now if already there, or later: Mold's `MDDispatcher`.
public enum MainDispatcher {
    /// Runs `body` right away when called on the main thread, otherwise schedules it on the
    /// main actor and returns at once.
    /// - Returns: Whether `body` already ran.
    @discardableResult
    public static func run(_ body: @escaping @MainActor @Sendable () -> Void) -> Bool {
        if Thread.isMainThread {
            MainActor.assumeIsolated { body() }
            return true
        }
        Task { @MainActor in body() }
        return false
    }

    /// Schedules `body` on the main actor and returns at once, even when called there.
    public static func later(_ body: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in body() }
    }

    /// Runs `body` on the main actor and returns its result: a hop there and back when needed.
    public static func value<Result: Sendable>(
        _ body: @MainActor @Sendable () throws -> Result
    ) async rethrows -> Result {
        try await MainActor.run(body: body)
    }
}
