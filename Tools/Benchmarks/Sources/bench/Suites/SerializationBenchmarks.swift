/// Benchmarks of the Serialization package against its peers (see the package's issue for the targets).
enum SerializationBenchmarks {
    static func cases() async throws -> [BenchmarkCase] {
        []
    }
}
