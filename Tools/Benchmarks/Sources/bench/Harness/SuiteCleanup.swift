/// Work a suite leaves for after its cases have run — stop a server it started, delete a
/// folder — run by `main` once the suite is done, whether its cases passed or failed.
@MainActor enum SuiteCleanup {
    private static var pending: [@Sendable () async -> Void] = []

    /// Runs `work` once the current suite's cases have run.
    static func add(_ work: @escaping @Sendable () async -> Void) {
        pending.append(work)
    }

    /// Runs the pending work, last added first.
    static func run() async {
        let work = pending
        pending = []
        for step in work.reversed() { await step() }
    }
}
