import Foundation
import Serialization
import Testing

@testable import Storage

/// A file older than the oldest version a model reads (`Versioned.oldestStoredVersion`) is not
/// damaged: it is reported as a migration that cannot be made, and left where it is, never
/// moved aside as corrupt.
@Suite("Files older than the oldest stored version")
struct OlderThanSupportedTests {
    /// Version 3, reading data from version 2 on.
    struct Settings: Codable, Equatable, Versioned {
        static let version = 3
        static let oldestStoredVersion: Int? = 2
        static let migrations = [Migration(from: 2) { $0["theme"] = .string("light") }]
        var theme: String
    }

    @Test("FileStore reports migrationFailed naming both versions, and neither changes nor moves the file")
    func fileStore() throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        let saved = #"{"model_version": 1, "colour": "blue"}"#
        try temporary.write(saved, to: "settings.json")
        let error = #expect(throws: StorageError.self) { try store.load(Settings.self, from: "settings.json") }
        guard case .migrationFailed(_, let underlying)? = error,
            case .olderThanSupported(found: 1, oldest: 2, _)? = underlying as? SerializationError
        else {
            Issue.record("expected migrationFailed for an older version, got \(String(describing: error))")
            return
        }
        #expect(error?.message.contains("older than the oldest supported version 2") == true)
        #expect(try temporary.read("settings.json") == saved)
        #expect(temporary.allFiles() == ["settings.json"])
        try temporary.write(#"{"model_version": 2}"#, to: "settings.json")
        #expect(try store.load(Settings.self, from: "settings.json") == Settings(theme: "light"))
    }
}
