import Foundation
import Testing

@testable import ModelGen

/// Generated entities conform to Storage's `QueryableRecord` only when asked (`boiler.queryable`
/// or ``GenerationOptions/queryable``), list the attributes Storage can query, and import Storage
/// only then. That the output compiles against Storage and a query on it runs is checked by
/// ``CompileTests``.
@Suite("QueryableRecord conformance")
struct QueryableConformanceTests {
    static let notes = """
        entities:
          - name: Note
            queryable: true
            attributes:
              - { name: id, type: Integer 64 }
              - { name: text, type: String }
              - { name: stars, type: Integer 16, default: "0" }
              - { name: score, type: Double, optional: true }
              - { name: created, type: Date }
              - { name: token, type: UUID, optional: true }
              - { name: done, type: Boolean }
              - { name: price, type: Decimal }
              - { name: blob, type: Binary, optional: true }
              - { name: cache, type: String, optional: true, transient: true }
              - { name: default, type: String }
            relationships:
              - { name: owner, destination: Person, reference: id, optional: true }
              - { name: tags, destination: Tag, toMany: true }
          - name: Person
            attributes:
              - { name: id, type: UUID }
              - { name: name, type: String }
          - name: Tag
            attributes:
              - { name: label, type: String }
          - name: Mood
            enum: true
            rawType: String
            attributes:
              - { name: happy, type: String }
        """

    /// The files and warnings `yaml` renders to with `options`.
    private func render(
        _ yaml: String, options: GenerationOptions = GenerationOptions()
    ) throws -> (files: [String: String], warnings: [String]) {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let url = try Fixtures.write(yaml, to: "Notes.modelgen.yaml", in: folder)
        let (files, warnings) = try ModelGenerator(options: options).renderFiles(
            try ModelDesign.read(from: url), designFile: url.lastPathComponent)
        return (Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.contents) }), warnings)
    }

    /// The error rendering `yaml` throws, or nil.
    private func failure(_ yaml: String, options: GenerationOptions = GenerationOptions()) -> ModelGenError? {
        do {
            _ = try render(yaml, options: options)
            return nil
        } catch {
            return error as? ModelGenError
        }
    }

    @Test("boiler.queryable lists every queryable attribute and to-one reference, and imports Storage")
    func explicitEntity() throws {
        let (files, _) = try render(Self.notes)
        let note = try #require(files["_Note.swift"])
        #expect(note.contains("import Foundation\nimport Storage\n"))
        #expect(note.contains("public struct Note: Codable, Sendable, Hashable, Identifiable {"))
        let expected = """
            /// A `RecordStore` filters, sorts and counts 'Note' records on these attributes in the
            /// backend (in the database for SQLite and PostgreSQL), each under its name in the design.
            extension Note: QueryableRecord {
                /// The attributes queries may use.
                public static let queryableFields: [QueryField<Note>] = [
                    QueryField(\\.id, "id"),
                    QueryField(\\.text, "text"),
                    QueryField(\\.stars, "stars"),
                    QueryField(\\.score, "score"),
                    QueryField(\\.created, "created"),
                    QueryField(\\.token, "token"),
                    QueryField(\\.done, "done"),
                    QueryField(\\.`default`, "default"),
                    QueryField(\\.owner, "owner")
                ]
            }

            """
        // The generated migrations follow the conformance.
        #expect(note.contains(expected), "got:\n\(note)")
        // Decimal, Data, transient and to-many properties are not queryable.
        for left in ["price", "blob", "cache", "tags"] { #expect(!note.contains("QueryField(\\.\(left)")) }
    }

    @Test("without the key or the option nothing mentions Storage")
    func offByDefault() throws {
        let (files, warnings) = try render(Self.notes.replacingOccurrences(of: "    queryable: true\n", with: ""))
        for (name, contents) in files {
            #expect(!contains(contents, "Storage"), "\(name) mentions Storage")
            #expect(!contains(contents, "QueryableRecord"), "\(name) is queryable")
            #expect(!contains(contents, "Identifiable"), "\(name) is Identifiable")
        }
        #expect(warnings.isEmpty)
    }

    @Test("the option makes entities with an id queryable and warns about the others; enums are left alone")
    func option() throws {
        let (files, warnings) = try render(Self.notes, options: GenerationOptions(queryable: true))
        #expect(contains(try #require(files["_Note.swift"]), "extension Note: QueryableRecord"))
        let person = try #require(files["_Person.swift"])
        #expect(person.contains("import Storage\n"))
        #expect(person.contains("QueryField(\\.id, \"id\"),\n        QueryField(\\.name, \"name\")\n    ]"))
        let tag = try #require(files["_Tag.swift"])
        #expect(!contains(tag, "Storage") && !contains(tag, "QueryableRecord"))
        #expect(!contains(try #require(files["_Mood.swift"]), "Storage"))
        #expect(
            warnings == [
                "Entity 'Tag' is not made queryable: QueryableRecord needs Identifiable, and the entity has no "
                    + "stored attribute named 'id'."
            ])
    }

    @Test("boiler.queryable NO keeps an entity out under the option")
    func optOut() throws {
        let yaml = Self.notes.replacingOccurrences(of: "queryable: true", with: "userInfo: { boiler.queryable: NO }")
        let (files, _) = try render(yaml, options: GenerationOptions(queryable: true))
        #expect(!contains(try #require(files["_Note.swift"]), "QueryableRecord"))
        #expect(contains(try #require(files["_Person.swift"]), "QueryableRecord"))
    }

    @Test(
        "an entity asking to be queryable without a stored id, or an enum asking, is a typed error",
        arguments: [
            ("  - name: Tag\n    queryable: true\n    attributes:\n      - { name: label, type: String }\n", "'id'"),
            (
                "  - name: Tag\n    queryable: true\n    attributes:\n"
                    + "      - { name: id, type: String, optional: true, transient: true }\n", "'id'"
            ),
            (
                "  - name: Tag\n    queryable: true\n    relationships:\n"
                    + "      - { name: id, destination: Tag, reference: id, optional: true }\n", "'id'"
            ),
            (
                "  - name: Tag\n    queryable: true\n    enum: true\n    rawType: String\n    attributes:\n"
                    + "      - { name: a, type: String }\n", "enum"
            ),
            ("  - name: Tag\n    queryable: maybe\n    attributes:\n      - { name: id, type: String }\n", "maybe"),
        ])
    func refused(entity: String, mention: String) throws {
        let error = try #require(failure("entities:\n" + entity))
        guard case .invalidUserInfo(let file, let name, let property, let key, let reason) = error else {
            Issue.record("expected invalidUserInfo, got \(error)")
            return
        }
        #expect(file == "Notes.modelgen.yaml" && name == "Tag" && property == nil && key == "boiler.queryable")
        #expect(reason.contains(mention), "\(reason)")
        #expect(error.message.contains("Tag"))
    }

    @Test("a refused entity writes nothing")
    func refusedWritesNothing() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let design = try Fixtures.write(
            "entities:\n  - name: Tag\n    queryable: true\n    attributes:\n      - { name: label, type: String }\n",
            to: "Tags.modelgen.yaml", in: folder)
        let output = folder.appendingPathComponent("out")
        #expect(throws: ModelGenError.self) { try ModelGenerator().generate(from: design, into: output) }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("an attribute whose name Storage cannot take is left out with a warning")
    func unusableFieldName() throws {
        let yaml = """
            entities:
              - name: Place
                queryable: true
                attributes:
                  - { name: id, type: String }
                  - { name: "straße", type: String }
                  - { name: aB, type: Integer 32 }
                  - { name: Ab, type: Integer 32 }
            """
        let (files, warnings) = try render(yaml)
        let place = try #require(files["_Place.swift"])
        #expect(place.contains("QueryField(\\.id, \"id\"),\n        QueryField(\\.aB, \"aB\")\n    ]"), "\(place)")
        #expect(
            warnings == [
                "Attribute 'Place.straße' is not queryable: a query field name is 1 to 48 ASCII letters, digits or _.",
                "Attribute 'Place.Ab' is not queryable: another field of the entity is named 'Ab' apart from case.",
            ])
    }

    @Test("an entity with an id but nothing else queryable declares no fields")
    func noFields() throws {
        let yaml =
            "entities:\n  - name: Blob\n    queryable: true\n    attributes:\n      - { name: id, type: Decimal }\n"
        let (files, _) = try render(yaml)
        #expect(
            contains(try #require(files["_Blob.swift"]), "public static let queryableFields: [QueryField<Blob>] = []"))
    }

    private func contains(_ text: String, _ part: String) -> Bool { text.range(of: part) != nil }
}
