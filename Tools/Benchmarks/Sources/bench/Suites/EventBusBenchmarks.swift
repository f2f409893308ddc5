/// Benchmarks of the EventBus package against its peers (see the package's issue for the targets).
enum EventBusBenchmarks {
    static func cases() async throws -> [BenchmarkCase] {
        []
    }
}
