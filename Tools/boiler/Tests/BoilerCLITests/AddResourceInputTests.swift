import Foundation
import Testing

@testable import BoilerCLI

@Suite("boiler add resource: the name and fields")
struct AddResourceInputTests {
    /// The error `ResourceSpec` throws for `name` and `fields`, or nil when it accepts them.
    func refusal(_ name: String, _ fields: [String], taken: Set<String> = []) -> BoilerError? {
        do {
            _ = try ResourceSpec(name: name, fields: fields, taken: taken)
            return nil
        } catch {
            return error
        }
    }

    @Test("fields of every type, optional or not, are read in order")
    func accepted() throws {
        let spec = try ResourceSpec(
            name: "OrderLine",
            fields: ["name:String", "count:Int", "price:Double", "done:Bool", "due:Date", "ref:UUID", "note:String?"])
        #expect(
            spec.fields.map(\.argument) == [
                "name:String", "count:Int", "price:Double", "done:Bool", "due:Date", "ref:UUID", "note:String?",
            ])
        #expect(spec.fields.last == ResourceSpec.Field(name: "note", type: .string, optional: true))
        #expect(spec.plural == "orderLines")
        #expect(spec.pathSegment == "order-lines")
        #expect(spec.searchField?.name == "name")
    }

    @Test("plurals: -y after a consonant, -s, -x, -ch and the rest")
    func plurals() throws {
        let cases = [
            "Tag": "tags", "Category": "categories", "Day": "days", "Address": "addresses", "Box": "boxes",
            "Match": "matches", "Status": "statuses",
        ]
        for (name, plural) in cases {
            #expect(try ResourceSpec(name: name, fields: ["a:Int"]).pathSegment == plural)
        }
    }

    @Test(
        "a bad resource name is refused with exit code 64, naming the name and why",
        arguments: [
            ("tag", "PascalCase"), ("Tags", "looks plural"), ("Ta g", "ASCII letters and digits"),
            ("Tag-Line", "ASCII letters and digits"), ("1Tag", "PascalCase"), ("", "it is empty"),
            ("../Tag", "holds a path"), ("Tag/Evil", "holds a path"), ("Tag\nimport Evil", "no line breaks"),
            ("Tаg", "lookalike"), ("String", "the type String"), ("Router", "the module Router"),
            ("Note", "the type Note"), ("Sync", "the type Sync"), ("Foundation", "the module Foundation"),
        ])
    func badName(name: String, reason: String) throws {
        let error = try #require(refusal(name, ["name:String"]))
        #expect(error.exitCode == 64)
        guard case .invalidResource(let part, _, let why) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(part == "resource name")
        #expect(why.contains(reason), "\(why)")
    }

    @Test(
        "a bad field is refused with exit code 64, naming the field and why",
        arguments: [
            ("name", "write a field as name:Type"), ("name:", "write a field as name:Type"),
            (":String", "write a field as name:Type"), ("a:b:String", "write a field as name:Type"),
            ("name:Text", "the type 'Text' is not one boiler can store"), ("name:string", "not one boiler can store"),
            ("name:String??", "not one boiler can store"), ("Name:String", "lowerCamel"),
            ("first-name:String", "lowerCamel"), ("1st:String", "lowerCamel"), ("class:String", "Swift keyword"),
            ("self:Int", "Swift keyword"), ("id:UUID", "'id' is declared by boiler"),
            ("createdAt:Date", "declared by boiler"), ("revision:Int", "'revision' is declared by boiler"),
            ("../x:String", "holds a path"),
            ("x\n:String", "no line breaks"), ("nаme:String", "lookalike"),
        ])
    func badField(field: String, reason: String) throws {
        let error = try #require(refusal("Tag", [field]))
        #expect(error.exitCode == 64)
        guard case .invalidResource(let part, let value, let why) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(part == "field")
        #expect(value == field)
        #expect(why.contains(reason), "\(why)")
    }

    @Test("no fields, or one field twice (in any case), is refused")
    func fieldCount() throws {
        #expect(refusal("Tag", [])?.message.contains("at least one field") == true)
        #expect(refusal("Tag", ["name:String", "name:Int"])?.message.contains("given twice") == true)
        #expect(refusal("Tag", ["name:String", "NAME:Int"]) != nil)
        #expect(refusal("Tag", ["aB:String", "ab:Int"])?.message.contains("given twice") == true)
    }

    @Test("a name the project already has, in any case, is refused")
    func taken() throws {
        #expect(refusal("Tag", ["a:Int"], taken: ["Tag"])?.message.contains("already has") == true)
        #expect(refusal("TAG", ["a:Int"], taken: ["Tag"]) != nil)
    }

    @Test("a 10 MB argument is refused quickly, and the message stays short")
    func huge() throws {
        let huge = String(repeating: "A", count: 10_000_000)
        let started = ContinuousClock.now
        let nameError = try #require(refusal(huge, ["a:Int"]))
        let fieldError = try #require(refusal("Tag", ["a" + huge + ":String"]))
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(nameError.message.count < 300)
        #expect(nameError.message.contains("10000000 bytes"))
        #expect(fieldError.message.count < 300)
    }

    @Test("a line break in an argument is shown escaped, so it cannot forge output")
    func escapedInMessage() throws {
        let error = try #require(refusal("Tag\nerror: fake", ["a:Int"]))
        #expect(!error.message.contains("\n"))
        #expect(error.message.contains(#"Tag\nerror: fake"#))
    }
}
