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
