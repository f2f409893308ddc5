import Foundation
import Storage
import StoragePostgres
import StoragePostgresTesting
import Testing

struct Counter: Codable, Identifiable, Sendable, Equatable, RevisionedRecord {
    var id: Int
    var value: Int
    var revision = 0
}

@Suite("Two processes through PostgreSQL", .timeLimit(.minutes(5)))
struct TwoProcessTests {
    /// The probe executable, built beside the test bundle.
    static var probe: URL? {
        if let path = ProcessInfo.processInfo.environment["STORAGE_POSTGRES_PROBE"] {
            return URL(fileURLWithPath: path)
        }
        var folders = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
            $0.bundleURL.deletingLastPathComponent()
        }
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        return folders.map { $0.appendingPathComponent("StoragePostgresProbe") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }

    @Test("two processes increment one record concurrently: no update is lost, conflicts are reported")
    func concurrentIncrements() async throws {
        let probe = try #require(Self.probe, "StoragePostgresProbe not found; set STORAGE_POSTGRES_PROBE")
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<Counter>(url: server.url, table: "counters")
            let counters = RecordStore(backend: backend)
            try await counters.insert(Counter(id: 1, value: 0))
            let times = 40
            async let first = Self.run(probe, ["increment", server.url.absoluteString, "counters", "\(times)"])
            async let second = Self.run(probe, ["increment", server.url.absoluteString, "counters", "\(times)"])
            let reports = try await [first, second]
            var conflicts = 0
            for report in reports {
                let parts = report.split(separator: " ")
                #expect(parts.first == "done", "probe said: \(report)")
                #expect(parts.count == 3 && Int(parts[1]) == times, "probe said: \(report)")
                conflicts += parts.count == 3 ? Int(parts[2]) ?? 0 : 0
            }
            let counter = try #require(try await counters.fetch(id: 1))
            #expect(counter.value == 2 * times)
            #expect(counter.revision == 2 * times)
            print("Two processes × \(times) increments: \(conflicts) conflicts reported and retried")
            try await backend.shutdown()
        }
    }

    /// Runs the probe to its end without blocking a thread; returns its trimmed output.
    static func run(_ probe: URL, _ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = probe
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        let _: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
