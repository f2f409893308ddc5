import Foundation
import Testing

@testable import ModelGen

@Suite("Bad input")
struct BadInputTests {
    /// Generates `xml` (a `contents` file) into a fresh folder and returns the error and whether
    /// anything was written.
    private func failure(xml: String) throws -> (error: ModelGenError?, wroteNothing: Bool) {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let design = try Fixtures.write(xml, to: "Bad.xcdatamodel/contents", in: folder)
        let output = folder.appendingPathComponent("out")
        var caught: ModelGenError?
        do {
            try ModelGenerator().generate(from: design.deletingLastPathComponent(), into: output)
        } catch let error as ModelGenError {
            caught = error
        }
        return (caught, !FileManager.default.fileExists(atPath: output.path))
    }

    private func model(_ body: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<model>\n" + body + "\n</model>\n"
    }

    @Test("malformed XML is an error with its line and column, and nothing is written")
    func malformedXML() throws {
        let (error, wroteNothing) = try failure(xml: model(#"<entity name="A">\#n  <attribute name="x" </entity>"#))
        guard case .malformedXML(let file, let line, let column, _) = try #require(error) else {
            Issue.record("expected malformedXML, got \(String(describing: error))")
            return
        }
        #expect(file.hasSuffix("Bad.xcdatamodel"))
        #expect(line == 4)
        #expect(column > 1)
        #expect(wroteNothing)
    }

    @Test("a file that is not a model is rejected", arguments: ["<plist/>", "<html><body/></html>"])
    func notAModel(xml: String) throws {
        let (error, wroteNothing) = try failure(xml: xml)
        guard case .notAModel = try #require(error) else {
            Issue.record("expected notAModel, got \(String(describing: error))")
            return
        }
        #expect(wroteNothing)
    }

    @Test("an unknown design extension is not a model")
    func unknownExtension() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let url = try Fixtures.write("hello", to: "notes.txt", in: folder)
        #expect(
            throws: ModelGenError.notAModel(
                file: url.path, reason: "expected .xcdatamodeld, .xcdatamodel, contents, .yaml, .yml or .json")
        ) {
            try ModelDesign.read(from: url)
        }
    }

    @Test("a missing design file is unreadable")
    func missingFile() {
        #expect(throws: ModelGenError.self) {
            try ModelDesign.read(from: URL(fileURLWithPath: "/nonexistent/M.xcdatamodel"))
        }
    }

    static let cases: [(String, String, ModelGenError)] = [
        (
            "duplicate entity",
            #"<entity name="A"/><entity name="A"/>"#,
            .duplicateEntity(file: "F", entity: "A")
        ),
        (
            "duplicate attribute",
            #"<entity name="A"><attribute name="x" attributeType="String"/><attribute name="x" attributeType="Double"/></entity>"#,
            .duplicateProperty(file: "F", entity: "A", property: "x")
        ),
        (
            "attribute duplicating an inherited one",
            #"<entity name="P"><attribute name="x" attributeType="String"/></entity><entity name="C" parentEntity="P"><attribute name="x" attributeType="String"/></entity>"#,
            .duplicateProperty(file: "F", entity: "C", property: "x")
        ),
        (
            "missing destination",
            #"<entity name="A"><relationship name="b" destinationEntity="B" maxCount="1"/></entity>"#,
            .missingDestination(file: "F", entity: "A", relationship: "b", destination: "B")
        ),
        (
            "inverse that does not point back",
            #"<entity name="A"><relationship name="b" destinationEntity="B" inverseName="c" maxCount="1"/></entity><entity name="B"><relationship name="c" destinationEntity="A" inverseName="other" maxCount="1"/></entity>"#,
            .inverseMismatch(file: "F", entity: "A", relationship: "b", inverse: "c")
        ),
        (
            "inverse that does not exist",
            #"<entity name="A"><relationship name="b" destinationEntity="B" inverseName="zzz" maxCount="1"/></entity><entity name="B"/>"#,
            .inverseMismatch(file: "F", entity: "A", relationship: "b", inverse: "zzz")
        ),
        (
            "name that cannot become an identifier",
            #"<entity name="A"><attribute name="-+-" attributeType="String"/></entity>"#,
            .invalidName(file: "F", entity: "A", property: "-+-", name: "-+-")
        ),
        (
            "entity name that cannot become a type",
            #"<entity name="%%"/>"#,
            .invalidName(file: "F", entity: "%%", property: nil, name: "%%")
        ),
        (
            "unknown attribute type",
            #"<entity name="A"><attribute name="x" attributeType="Quaternion"/></entity>"#,
            .unknownAttributeType(file: "F", entity: "A", attribute: "x", type: "Quaternion")
        ),
        (
            "missing parent",
            #"<entity name="A" parentEntity="Ghost"/>"#,
            .invalidParent(file: "F", entity: "A", parent: "Ghost")
        ),
        (
            "parents in a loop",
            #"<entity name="A" parentEntity="B"/><entity name="B" parentEntity="A"/>"#,
            .invalidParent(file: "F", entity: "A", parent: "B")
        ),
        (
            "a value loop the design insists on",
            #"<entity name="A"><relationship name="me" destinationEntity="A" maxCount="1"><userInfo><entry key="boiler.reference" value="value"/></userInfo></relationship></entity>"#,
            .valueCycle(file: "F", entity: "A", relationship: "me")
        ),
        (
            "an Int enum with a non-integer raw value",
            #"<entity name="E"><attribute name="a" attributeType="String"><userInfo><entry key="boiler.rawValue" value="x"/></userInfo></attribute><userInfo><entry key="boiler.enum" value="YES"/><entry key="boiler.rawType" value="Int"/></userInfo></entity>"#,
            .invalidEnum(file: "F", entity: "E", reason: "case 'a' has the raw value 'x', which is not an Int")
        ),
    ]

    @Test(
        "each kind of bad design is a typed error naming file, entity and property, and nothing is written",
        arguments: 0..<cases.count)
    func typedErrors(index: Int) throws {
        let (label, body, expected) = Self.cases[index]
        let (error, wroteNothing) = try failure(xml: model(body))
        let caught = try #require(error, "\(label): no error")
        #expect(caught.code == expected.code, "\(label): \(caught.message)")
        #expect(caught.message.contains("Bad.xcdatamodel"), "\(label): the message names no file")
        // The message names the entity, property, type… the expected error carries, not only the file.
        for (part, value) in Self.namedParts(of: expected) where part != "file" {
            #expect(caught.message.contains(value), "\(label): the message does not name the \(part) '\(value)'")
        }
        #expect(wroteNothing, "\(label): something was written")
        if case .invalidEnum = expected {
            #expect(caught.message.contains("not an Int"))
        }
    }

    /// The labelled string values an error case carries (`entity: "A"`, `property: "x"`…), nil ones left out.
    static func namedParts(of error: ModelGenError) -> [(String, String)] {
        guard let payload = Mirror(reflecting: error).children.first?.value else { return [] }
        return Mirror(reflecting: payload).children.compactMap { child in
            guard let label = child.label else { return nil }
            if let text = child.value as? String { return (label, text) }
            if let text = child.value as? String?, let text { return (label, text) }
            return nil
        }
    }

    @Test("an unparsable template is an error with its line and column")
    func badTemplate() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        try Fixtures.write("line one\n{{#entity}}\n{{/other}}\n", to: "machine.mustache", in: folder)
        let options = GenerationOptions(templateDirectory: folder)
        let design = ModelDesign(name: "M", entities: [EntityDesign(name: "A")])
        #expect {
            try ModelGenerator(options: options).render(design, designFile: "M.yaml")
        } throws: { error in
            guard case .invalidTemplate(let name, let line, _, _) = error as? ModelGenError else { return false }
            return name.hasSuffix("machine.mustache") && line == 3
        }
    }

    @Test("template variables without '=' are refused")
    func badTemplateVariable() throws {
        #expect(throws: ModelGenError.invalidOption(option: "--template-var nokey", reason: "expected key=value")) {
            try GenerationOptions.templateVariables(from: ["nokey"])
        }
        #expect(throws: ModelGenError.self) { try GenerationOptions.templateVariables(from: ["=x"]) }
        #expect(try GenerationOptions.templateVariables(from: ["a=b=c"]) == ["a": "b=c"])
    }

    @Test(
        "truncated, empty and binary files never crash the reader",
        arguments: ["", "<mod", "\u{0}\u{1}\u{2}", "<model><entity"])
    func garbage(text: String) throws {
        let (error, wroteNothing) = try failure(xml: text)
        #expect(error != nil)
        #expect(wroteNothing)
    }
}
