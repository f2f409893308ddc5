/// Benchmarks of the Operations package against its peers (see the package's issue for the targets).
enum OperationsBenchmarks {
    static func cases() async throws -> [BenchmarkCase] {
        []
    }
}
