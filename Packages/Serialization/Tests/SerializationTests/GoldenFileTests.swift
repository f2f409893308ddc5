import Foundation
import Testing

@testable import Serialization

/// The model the golden files hold.
struct GoldenModel: Codable, Versioned {
    static let version = 2
    var zeta = "last"
    var alpha = 1
    var ratio = 0.1
    var when = Date(timeIntervalSince1970: 1_700_000_000)
    var bytes = Data([0xDE, 0xAD, 0xBE, 0xEF])
    var nested = ["b": [1, 2], "a": []]
    var escaped = "quote \" backslash \\ tab \t <tag> & ünïcødé"
    var missing: Int? = nil
}

@Suite("Golden files")
struct GoldenFileTests {
    // Outside the test target, so SwiftPM does not treat the files as unhandled resources.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    static let cases: [(String, any DataFormat)] = [
        ("golden.json", JSONFormat()), ("golden-pretty.json", JSONFormat(prettyPrinted: true)),
        ("golden.plist", PropertyListFormat(.xml)), ("golden.bplist", PropertyListFormat(.binary)),
    ]

    @Test("each format writes the golden bytes, identically every run", arguments: 0..<cases.count)
    func golden(index: Int) throws {
        let (name, format) = Self.cases[index]
        let url = Self.directory.appendingPathComponent(name)
        let first = try Serializer(format: format).data(GoldenModel())
        let second = try Serializer(format: format).data(GoldenModel())
        #expect(first == second)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] != nil { try first.write(to: url) }
        let golden = try Data(contentsOf: url)
        #expect(first == golden, "\(name) differs from the golden file")
        let back = try Serializer(format: format).read(GoldenModel.self, from: golden)
        #expect(back.escaped == GoldenModel().escaped && back.nested == GoldenModel().nested)
    }
}
