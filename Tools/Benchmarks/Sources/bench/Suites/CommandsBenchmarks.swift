/// Benchmarks of the Commands package against its peers (see the package's issue for the targets).
enum CommandsBenchmarks {
    static func cases() async throws -> [BenchmarkCase] {
        []
    }
}
