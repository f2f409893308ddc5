import Foundation
import Testing

@testable import Serialization

// What the JSON reader accepts as text: escapes, whitespace, depth and keys.

@Suite("JSON syntax: escapes, whitespace, empty input, depth and duplicate keys")
struct JSONSyntaxTests {
    let json = Serializer(.json)

    @Test("escapes: NUL, solidus, surrogate pairs; lone surrogates are errors")
    func escapes() throws {
        #expect(try json.read(String.self, from: #""a\u0000b""#) == "a\u{0}b")
        #expect(try json.read(String.self, from: #""\/\\\"""#) == "/\\\"")
        #expect(try json.read(String.self, from: #""\uD83D\uDE00""#) == "😀")
        #expect(try json.read(String.self, from: #""\u00e9""#) == "é")
        for text in [#""\uD800""#, #""\uDC00""#, #""\uD800\u0041""#, #""\uD800x""#, #""\u12""#, #""\x""#] {
            let error = serializationError { _ = try json.read(String.self, from: text) }
            guard case .malformed? = error else {
                Testing.Issue.record("\(text): \(String(describing: error))")
                continue
            }
        }
        // NUL and other control characters survive a round trip.
        let text = "nul\u{0} bell\u{7} del\u{7F} ls\u{2028}"
        #expect(try json.read(String.self, from: try json.data(text)) == text)
    }

    @Test("a byte order mark is skipped; whitespace is only the four JSON characters")
    func bomAndWhitespace() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data(" \t\r\n[1]\n".utf8))
        #expect(try json.read([Int].self, from: data) == [1])
        #expect(Serializer.format(of: data) == .json)
        for text in ["\u{0C}[1]", "[1]\u{0B}", "\u{A0}[1]", "[1]\u{FEFF}"] {
            let error = serializationError { _ = try JSONFormat().tree(from: Data(text.utf8)) }
            #expect(error != nil, "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test("empty and blank input are errors")
    func emptyInput() {
        for text in ["", "   ", "\n"] {
            let error = serializationError { _ = try json.read([Int].self, from: text) }
            guard case .malformed? = error else {
                Testing.Issue.record("\(text.debugDescription): \(String(describing: error))")
                continue
            }
        }
    }

    @Test("nesting exactly at the limit is read; one more is tooDeep")
    func depthLimit() throws {
        let format = JSONFormat(maximumDepth: 512)
        let atLimit = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        let tree = try format.tree(from: Data(atLimit.utf8))
        #expect(try format.data(from: tree) == Data(atLimit.utf8))
        let over = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = serializationError { _ = try format.tree(from: Data(over.utf8)) }
        guard case .tooDeep(let limit, _)? = error else {
            Testing.Issue.record("\(String(describing: error))")
            return
        }
        #expect(limit == 512)
    }

    @Test("a duplicate key error names the key, its line and column")
    func duplicateKey() throws {
        let text = "{\n  \"outer\": {\n    \"a\": 1,\n    \"a\": 2\n  }\n}"
        let error = serializationError { _ = try JSONFormat().tree(from: Data(text.utf8)) }
        guard case .duplicateKey(let key, let location)? = error else {
            Testing.Issue.record("\(String(describing: error))")
            return
        }
        #expect(key == "a")
        #expect(location.line == 4)
        #expect(location.column == 5)
        #expect(location.keyPath.description == "outer.a")
        #expect(error?.message.contains("\"a\"") == true)
        #expect(error?.message.contains("line 4, column 5") == true)
    }
}
