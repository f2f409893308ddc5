/// Benchmarks of the Networking package against its peers (see the package's issue for the targets).
enum NetworkingBenchmarks {
    static func cases() async throws -> [BenchmarkCase] {
        []
    }
}
