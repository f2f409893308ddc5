import Foundation
import Serialization
import SerializationYAML
import Testing

@Suite("YAML add-on")
struct YAMLFormatTests {
    struct Settings: Codable, Equatable {
        var name: String
        var retries: Int
        var ratio: Double
        var enabled: Bool
        var tags: [String]
        var note: String?
        var updated: Date
    }

    @Test("models round-trip through YAML, with sorted keys")
    func roundTrip() throws {
        let settings = Settings(
            name: "true", retries: 3, ratio: 0.5, enabled: false, tags: ["a", "b"], note: nil,
            updated: Date(timeIntervalSince1970: 1_700_000_000))
        let yaml = Serializer(.yaml)
        let text = try yaml.string(settings)
        #expect(text.hasPrefix("enabled: false\nname: 'true'\n"))
        #expect(try yaml.read(Settings.self, from: text) == settings)
    }

    @Test("bad YAML is a typed error")
    func badInput() {
        #expect(throws: SerializationError.self) { try YAMLFormat().tree(from: Data("a: [1, 2".utf8)) }
        #expect(throws: SerializationError.self) { try YAMLFormat().tree(from: Data("a: 1\na: 2\n".utf8)) }
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: SerializationError.self) { try YAMLFormat(maximumDepth: 100).tree(from: Data(deep.utf8)) }
    }
}

@Suite("YAML aliases")
struct YAMLAliasTests {
    @Test("anchors and aliases read as copies")
    func aliases() throws {
        let tree = try YAMLFormat().tree(from: Data("a: &x [1, 2]\nb: *x\n".utf8))
        #expect(tree["b"] == [1, 2])
    }

    @Test("alias bombs stop at the node limit")
    func bomb() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1..<7 {
            let previous = "*a\(level - 1)"
            text += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        #expect(throws: SerializationError.self) { try YAMLFormat(maximumNodes: 10_000).tree(from: Data(text.utf8)) }
    }
}

@Suite("YAML depth limit")
struct YAMLDepthLimitTests {
    static func nested(_ depth: Int) -> KeyValue {
        var tree: KeyValue = ["leaf": "x"]
        for _ in 1..<depth { tree = [tree] }
        return tree
    }

    @Test("YAML writes and reads exactly up to the shared limit, and the writer refuses more")
    func sharedLimit() throws {
        let format = YAMLFormat()
        #expect(format.maximumDepth == KeyValue.defaultMaximumDepth)
        let atLimit = Self.nested(KeyValue.defaultMaximumDepth)
        #expect(try format.tree(from: format.data(from: atLimit)) == atLimit)
        let error = #expect(throws: SerializationError.self) { try format.data(from: ["a": atLimit]) }
        guard case .tooDeep(limit: 512, let location)? = error else {
            Testing.Issue.record("expected tooDeep, got \(String(describing: error))")
            return
        }
        #expect(location.keyPath.components.count == 512)
        #expect(location.keyPath.components.first == .key("a"))
    }

    @Test("a YAML document one level deeper than the limit is refused by the reader")
    func readerCountsContainers() throws {
        let limited = YAMLFormat(maximumDepth: 3)
        #expect(try limited.tree(from: Data("[[[1]]]".utf8)) == [[[1]]])
        #expect(throws: SerializationError.self) { try limited.tree(from: Data("[[[[1]]]]".utf8)) }
        #expect(throws: SerializationError.self) { try limited.data(from: [[[[1]]]]) }
    }
}
