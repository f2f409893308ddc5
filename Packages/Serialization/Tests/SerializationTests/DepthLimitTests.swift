import Foundation
import Testing

@testable import Serialization

/// Writers and readers share one depth limit: a tree the reader would refuse is refused by the
/// writer, with a typed error naming the limit and the key path, before anything is written.
@Suite("One depth limit for writing and reading")
struct DepthLimitTests {
    /// `depth` nested arrays around an object holding a string.
    static func nested(_ depth: Int) -> KeyValue {
        var tree: KeyValue = ["leaf": "x"]
        for _ in 1..<depth { tree = [tree] }
        return tree
    }

    /// A node of an outline: each level is an object and an array, so two containers.
    struct Outline: Codable, Equatable {
        var title: String
        var children: [Outline]

        static func chain(_ levels: Int) -> Outline {
            var outline = Outline(title: "leaf", children: [])
            for level in 1..<levels { outline = Outline(title: "level \(level)", children: [outline]) }
            return outline
        }
    }

    @Test("every format shares KeyValue.defaultMaximumDepth", arguments: Formats.all)
    func sharedDefault(format: any DataFormat) {
        #expect(KeyValue.defaultMaximumDepth == 512)
        if let json = format as? JSONFormat { #expect(json.maximumDepth == KeyValue.defaultMaximumDepth) }
        if let plist = format as? PropertyListFormat { #expect(plist.maximumDepth == KeyValue.defaultMaximumDepth) }
    }

    @Test("a tree exactly at the limit is written and read back", arguments: Formats.all)
    func atLimit(format: any DataFormat) throws {
        let tree = Self.nested(KeyValue.defaultMaximumDepth)
        #expect(tree.depth == 512)
        #expect(try format.tree(from: format.data(from: tree)) == tree)
    }

    @Test("one level more is refused by the writer, naming the limit and the key path", arguments: Formats.all)
    func overLimit(format: any DataFormat) throws {
        let tree: KeyValue = ["outline": Self.nested(KeyValue.defaultMaximumDepth)]
        #expect(tree.depth == 513)
        let error = #expect(throws: SerializationError.self) { try format.data(from: tree) }
        guard case .tooDeep(let limit, let location)? = error else {
            Testing.Issue.record("expected tooDeep, got \(String(describing: error))")
            return
        }
        #expect(limit == 512)
        #expect(location.format == format.kind.name)
        // The path leads to the container that is one too deep: the key, then 511 indexes.
        #expect(location.keyPath.components.count == 512)
        #expect(location.keyPath.components.first == .key("outline"))
        #expect(error?.message.contains("deeper than 512 levels") == true)
    }

    @Test("a model too deep to read back is not saved, and the old file stays", arguments: Formats.all)
    func nothingWritten(format: any DataFormat) throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("outline.\(format.kind.fileExtension)")
        let serializer = Serializer(format: format)
        let fits = Outline.chain(256)  // 256 objects and 256 arrays: depth 512
        try serializer.write(fits, to: url)
        #expect(try serializer.read(Outline.self, from: url) == fits)
        let before = try Data(contentsOf: url)
        #expect(throws: SerializationError.self) { try serializer.write(Outline.chain(257), to: url) }
        #expect(try Data(contentsOf: url) == before)
        let fresh = directory.url.appendingPathComponent("new.\(format.kind.fileExtension)")
        #expect(throws: SerializationError.self) { try serializer.write(Outline.chain(257), to: fresh) }
        #expect(!FileManager.default.fileExists(atPath: fresh.path))
    }

    @Test("a smaller limit is the same for writer and reader", arguments: Formats.all)
    func customLimit(format: any DataFormat) throws {
        let limited: any DataFormat =
            if let json = format as? JSONFormat {
                JSONFormat(prettyPrinted: json.prettyPrinted, maximumDepth: 3)
            } else if let plist = format as? PropertyListFormat {
                PropertyListFormat(plist.encoding, maximumDepth: 3)
            } else {
                format
            }
        let three: KeyValue = [[[]]]
        #expect(try limited.tree(from: limited.data(from: three)) == three)
        #expect(throws: SerializationError.self) { try limited.data(from: [three]) }
        // What the unlimited writer produces, the limited reader refuses at the same depth.
        #expect(throws: SerializationError.self) { try limited.tree(from: format.data(from: [three])) }
    }

    @Test("an empty <array/> or <dict/> counts as a level in XML, as the writer counts it")
    func emptyElementsCount() throws {
        let format = PropertyListFormat(.xml, maximumDepth: 1)
        for text in ["<plist><array><array/></array></plist>", "<plist><array><dict/></array></plist>"] {
            let error = #expect(throws: SerializationError.self) { try format.tree(from: Data(text.utf8)) }
            guard case .tooDeep(limit: 1, _)? = error else {
                Testing.Issue.record("\(text): \(String(describing: error))")
                continue
            }
        }
        #expect(try format.tree(from: Data("<plist><array/></plist>".utf8)) == [])
    }

    /// A binary plist can share one container among several parents; reading it once and reusing
    /// it deeper down must still count its height.
    @Test("a shared binary-plist object reused deeper down still counts against the limit")
    func sharedObjectDepth() throws {
        // 0: [1, 3]   1: [2]   2: [5]   3: [4]   4: [1]   5: 7
        // Object 1 has height 2; read under 0 it ends at depth 3, reused under 4 it ends at 5.
        let objects: [[UInt8]] = [[0xA2, 1, 3], [0xA1, 2], [0xA1, 5], [0xA1, 4], [0xA1, 1], [0x10, 7]]
        let data = Self.binaryPropertyList(objects, top: 0)
        #expect(try PropertyListFormat(.binary, maximumDepth: 5).tree(from: data) == [[[7]], [[[[7]]]]])
        let error = #expect(throws: SerializationError.self) {
            try PropertyListFormat(.binary, maximumDepth: 4).tree(from: data)
        }
        guard case .tooDeep(limit: 4, _)? = error else {
            Testing.Issue.record("expected tooDeep, got \(String(describing: error))")
            return
        }
    }

    /// A `bplist00` file from already encoded objects (1-byte references and offsets).
    static func binaryPropertyList(_ objects: [[UInt8]], top: Int) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        for word in [objects.count, top, table] {
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) }
        }
        return Data(bytes)
    }
}
