import Foundation
import Testing

@testable import Serialization

// What a model reads when a document carries no version.

private struct Strict: Codable, Versioned, Equatable {
    static let version = 2
    static let missingVersion = MissingVersionPolicy.reject
    static let migrations = [Migration(from: 1) { $0["added"] = .bool(true) }]
    var added: Bool
}

private struct AssumeCurrent: Codable, Versioned, Equatable {
    static let version = 2
    static let missingVersion = MissingVersionPolicy.current
    static let migrations = [Migration(from: 1) { $0["added"] = .bool(false) }]
    var added: Bool
}

private struct AssumeOne: Codable, Versioned, Equatable {
    static let version = 3
    static let missingVersion = MissingVersionPolicy.assume(2)
    static let migrations = [
        Migration(from: 1) { $0["trail"] = .string("1") },
        Migration(from: 2) { $0["trail"] = .string(($0["trail"]?.stringValue ?? "") + "2") },
    ]
    var trail: String
}

@Suite("A document without a version: reject, current or assume")
struct MissingVersionPolicyTests {
    let json = Serializer(.json)

    @Test("missing-version policies: reject, current, assume")
    func missingVersionPolicies() throws {
        let error = serializationError { _ = try json.read(Strict.self, from: "{}") }
        guard case .missingVersion(let key, _)? = error else {
            Testing.Issue.record("\(String(describing: error))")
            return
        }
        #expect(key == "model_version")
        #expect(try json.read(Strict.self, from: #"{"model_version": 1}"#) == Strict(added: true))
        #expect(try json.read(AssumeCurrent.self, from: #"{"added": true}"#) == AssumeCurrent(added: true))
        #expect(try json.read(AssumeOne.self, from: "{}") == AssumeOne(trail: "2"))
    }
}
