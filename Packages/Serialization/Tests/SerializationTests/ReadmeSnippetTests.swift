import Foundation
import Serialization
import Testing

// The issue's snippet, unchanged; the types live at file scope, the statements in the test.
struct Issue: Codable, Equatable { var title: String; var comment: String? }

struct Company: Codable, Versioned {
    static let version = 3  // stamped under "model_version" by default
    static let migrations = [
        Migration(from: 1) { try $0.rename("name", to: "title") },
        Migration(from: 2) { $0["founded"] = .int(1990) },
    ]
    var title: String; var founded: Int
}

@Suite("The README snippet")
struct ReadmeSnippetTests {
    @Test("compiles and behaves as written")
    func snippet() throws {
        let directory = try TemporaryDirectory()
        let fileURL = directory.url.appendingPathComponent("issues.json")
        let plistURL = directory.url.appendingPathComponent("issues.plist")
        let binURL = directory.url.appendingPathComponent("issues.bplist")
        let v1FileURL = directory.url.appendingPathComponent("company-v1.json")
        try Data(#"{"model_version": 1, "name": "Acme"}"#.utf8).write(to: v1FileURL)

        let issues = [Issue(title: "Crash on launch", comment: nil)]

        let json = Serializer(.json)  // deterministic: sorted keys, stable output
        try json.write(issues, to: fileURL)  // atomic
        let back = try json.read([Issue].self, from: fileURL)
        let text = try json.string(issues); let bytes = try json.data(issues)
        json.print(issues)  // to standard output
        try Serializer(.xmlPropertyList).write(issues, to: plistURL)
        try Serializer(.binaryPropertyList).write(issues, to: binURL)  // real "bplist00"
        let sniffed = Serializer.format(of: try Data(contentsOf: binURL))
        assert(sniffed == .binaryPropertyList)

        let tree = try KeyValue(encoding: issues[0])  // phase one, inspectable and editable
        assert(tree["title"] == .string("Crash on launch"))
        let again = try tree.decode(Issue.self)

        let company = try json.read(Company.self, from: v1FileURL)  // 1 → 2 → 3 in one parse

        #expect(back == issues)
        #expect(text == #"[{"title":"Crash on launch"}]"#)
        #expect(bytes == Data(text.utf8))
        #expect(sniffed == .binaryPropertyList)
        #expect(again == issues[0])
        #expect(company.title == "Acme")
        #expect(company.founded == 1990)
    }
}
