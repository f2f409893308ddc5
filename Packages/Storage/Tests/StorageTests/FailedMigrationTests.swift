import Foundation
import Serialization
import Testing

@testable import Storage

/// A migration step that throws leaves the file where it is: the data may be fine and the step
/// wrong, so a fixed app must find it again, unlike a file that does not parse.
@Suite("Failed migration steps")
struct FailedMigrationTests {
    struct StepRefused: Error {}

    /// Version 2 refuses data whose `count` is negative.
    struct Counter: Codable, Equatable, Versioned {
        static let version = 2
        static let migrations = [
            Migration(from: 1) { tree in
                guard (tree["count"]?.intValue ?? 0) >= 0 else { throw StepRefused() }
                tree["label"] = .string("migrated")
            }
        ]
        var count: Int
        var label: String
    }

    @Test("FileStore reports migrationFailed and neither changes nor moves the file")
    func fileStore() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let saved = #"{"model_version": 1, "count": -1}"#
        try temporary.write(saved, to: "counter.json")
        let error = #expect(throws: StorageError.self) { try store.load(Counter.self, from: "counter.json") }
        guard case .migrationFailed(_, let underlying)? = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect("\(underlying)".contains("1 → 2 of Counter"))
        #expect(error?.message.contains("left untouched") == true)
        #expect(try temporary.read("counter.json") == saved)
        #expect(try store.quarantinedFile(for: "counter.json") == nil)
        #expect(temporary.allFiles() == ["counter.json"])
        // Data the step accepts still loads.
        try temporary.write(#"{"model_version": 1, "count": 3}"#, to: "counter.json")
        #expect(try store.load(Counter.self, from: "counter.json") == Counter(count: 3, label: "migrated"))
    }

    @Test("Persisted reports migrationFailed and keeps the file in place")
    func persisted() async throws {
        let temporary = try TemporaryFolder()
        let saved = #"{"model_version": 1, "count": -1}"#
        try temporary.write(saved, to: "counter.json")
        let store = try temporary.store()
        let error = await #expect(throws: StorageError.self) {
            _ = try await Persisted<Counter>(file: "counter.json", in: store, defaults: Counter(count: 0, label: ""))
        }
        guard case .migrationFailed? = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(try temporary.read("counter.json") == saved)
        #expect(temporary.allFiles().filter { !$0.hasPrefix(".") } == ["counter.json"])
    }
}
