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

@Suite("YAML exact numbers")
struct YAMLExactNumberTests {
    struct Numbers: Codable, Equatable {
        var unsigned: [UInt64] = [0, UInt64(Int64.max) + 1, .max]
        var signed: [Int64] = [.min, .max]
        var decimals: [Decimal] = ["0.1", "3.14159265358979323846", "-12345678901234567890.5", "1e-100"].map {
            Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX"))!
        }
        var doubles: [Double] = [
            0.1 + 0.2, 1.0 / 3, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e23, 123_456_789.123_456_78,
        ]
    }

    @Test("integers, decimals and doubles round-trip exactly through YAML")
    func numbers() throws {
        let yaml = Serializer(.yaml)
        let value = Numbers()
        let back = try yaml.read(Numbers.self, from: yaml.data(value))
        #expect(back == value)
        #expect(back.doubles.map(\.bitPattern) == value.doubles.map(\.bitPattern))
        #expect(back.decimals.map(\.description) == value.decimals.map(\.description))
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct Wide: Codable, Equatable {
        var values: [Int128] = [.min, .max]
        var top: UInt128 = .max
    }

    @Test("Int128 and UInt128 round-trip through YAML")
    func wide() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        let yaml = Serializer(.yaml)
        #expect(try yaml.read(Wide.self, from: yaml.data(Wide())) == Wide())
    }
}
