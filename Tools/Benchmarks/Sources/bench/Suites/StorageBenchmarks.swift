/// Benchmarks of the Storage package against its peers (see the package's issue for the targets).
enum StorageBenchmarks {
    static func cases() async throws -> [BenchmarkCase] {
        []
    }
}
