/// Benchmarks of the Router package against its peers (see the package's issue for the targets).
enum RouterBenchmarks {
    static func cases() async throws -> [BenchmarkCase] {
        []
    }
}
