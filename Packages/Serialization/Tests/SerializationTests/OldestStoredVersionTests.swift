import Foundation
import Testing

@testable import Serialization

/// A note at version 3 that reads data from version 2 on: its step from 1 is kept here to show
/// that the statement, not a missing step, refuses older data.
private struct Note: Codable, Versioned, Equatable {
    static let version = 3
    static let migrations = [
        Migration(from: 1) { $0["body"] = .string("") },
        Migration(from: 2) { $0["pinned"] = .bool(false) },
    ]
    var body: String
    var pinned: Bool
}

// Declared apart from the conformance, as ModelGen's machine file declares it.
extension Note {
    static let oldestStoredVersion: Int? = 2
}

/// A model without the statement.
private struct Unstated: Codable, Versioned, Equatable {
    static let version = 3
    static let migrations = [Migration(from: 2) { $0["pinned"] = .bool(false) }]
    var pinned: Bool
}

@Suite("Data older than a model's oldest stored version")
struct OldestStoredVersionTests {
    let json = Serializer(.json)

    /// Checks that `error` refuses version `found` as older than 2.
    func expectRefused(_ error: SerializationError?, found: ModelVersion, path: String = "<root>") {
        guard case .olderThanSupported(let stored, let oldest, let location)? = error else {
            Testing.Issue.record("expected olderThanSupported, got \(String(describing: error))")
            return
        }
        #expect(stored == found && oldest == 2)
        #expect("\(location.keyPath)" == path)
        #expect(
            error?.message.hasPrefix("Data has model version \(found), older than the oldest supported version 2")
                == true)
    }

    @Test("data stamped older is refused, naming the version found and the oldest supported")
    func refused() {
        expectRefused(
            serializationError { _ = try json.read(Note.self, from: #"{"model_version": 1, "body": "x"}"#) }, found: 1)
        expectRefused(serializationError { _ = try Note.migrated(.object(["model_version": .int(1)])) }, found: 1)
        expectRefused(serializationError { _ = try json.read(Note.self, from: #"{"model_version": 0}"#) }, found: 0)
    }

    @Test("values inside a document are refused at their key path, by the one-pass reader too")
    func nested() {
        let text = #"[{"model_version": 2, "body": "a"}, {"model_version": 1, "body": "b"}]"#
        expectRefused(serializationError { _ = try json.read([Note].self, from: text) }, found: 1, path: "[1]")
        expectRefused(
            serializationError { _ = try json.reader(for: [Note].self).read(from: Data(text.utf8)) }, found: 1,
            path: "[1]")
    }

    @Test("data at the oldest stored version and after migrates as before; unversioned data is that version")
    func accepted() throws {
        #expect(try json.read(Note.self, from: #"{"model_version": 2, "body": "a"}"#) == Note(body: "a", pinned: false))
        #expect(
            try json.read(Note.self, from: #"{"model_version": 3, "body": "b", "pinned": true}"#)
                == Note(body: "b", pinned: true))
        #expect(try json.read(Note.self, from: #"{"body": "c"}"#) == Note(body: "c", pinned: false))
    }

    @Test("a model that states no oldest version still reports a missing path for older data")
    func unstated() {
        let error = serializationError { _ = try json.read(Unstated.self, from: #"{"model_version": 1}"#) }
        guard case .noMigrationPath(from: 1, to: 3, _)? = error else {
            Testing.Issue.record("expected noMigrationPath, got \(String(describing: error))")
            return
        }
    }
}
