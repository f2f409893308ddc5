/// Benchmarks of the ModelGen package against its peers (see the package's issue for the targets).
enum ModelGenBenchmarks {
    static func cases() async throws -> [BenchmarkCase] {
        []
    }
}
