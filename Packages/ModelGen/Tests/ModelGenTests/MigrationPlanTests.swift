import Foundation
import Testing

@testable import ModelGen

/// The changes between consecutive versions, as the plan prints them, and which need a hook.
@Suite("Migration plans between design versions")
struct MigrationPlanTests {
    /// A history of `Post` (plus `Tag`) entities, one per version.
    static func history(_ posts: [EntityDesign], extra: [EntityDesign] = []) -> DesignHistory {
        let tag = EntityDesign(name: "Tag", attributes: [AttributeDesign(name: "label", type: .string)])
        let versions = posts.enumerated().map { offset, post in
            DesignHistory.Version(
                name: "Blog \(offset + 1)", design: ModelDesign(name: "Blog", entities: [post, tag] + extra))
        }
        return DesignHistory(name: "Blog", earlier: Array(versions.dropLast()), current: versions[versions.count - 1])
    }

    static func post(
        _ attributes: [AttributeDesign], _ relationships: [RelationshipDesign] = [], name: String = "Post",
        renamedFrom: String? = nil
    ) -> EntityDesign {
        EntityDesign(name: name, attributes: attributes, relationships: relationships, renamingIdentifier: renamedFrom)
    }

    static let title = AttributeDesign(name: "title", type: .string)

    static func plan(_ history: DesignHistory) throws -> MigrationPlan {
        try ModelGenerator().plan(history, designFile: "Blog.yaml")
    }

    @Test("the plan prints one line per step, naming each change as the issue shows")
    func planLine() throws {
        let history = Self.history([
            Self.post([Self.title, AttributeDesign(name: "color", type: .string, isOptional: true)]),
            Self.post([
                Self.title,
                AttributeDesign(name: "hexColor", type: .string, isOptional: true, renamingIdentifier: "color"),
                AttributeDesign(name: "softDeleted", type: .boolean, defaultValue: "NO"),
            ]),
        ])
        let plan = try Self.plan(history)
        #expect(
            plan.lines == [
                "versions: v1 = Blog 1, v2 = Blog 2 (current)",
                "v1 → v2: Post.color renamed to hexColor; Post.softDeleted added (default false)",
            ])
        #expect(plan.hooks.isEmpty)
    }

    /// One kind of change Core Data's lightweight migration infers (or a lossless widening), as
    /// two versions of `Post`, and the summary ModelGen gives it: generated with no user code.
    struct Inferred: Sendable, CustomTestStringConvertible {
        var label: String
        var before: EntityDesign
        var after: EntityDesign
        var summary: String
        var kind: ModelChange.Kind
        var testDescription: String { label }
    }

    static let tagLink = RelationshipDesign(name: "tag", destination: "Tag")
    static let tagsLink = RelationshipDesign(name: "tags", destination: "Tag", isToMany: true)

    static let inferred: [Inferred] = [
        Inferred(
            label: "optional attribute added", before: post([title]),
            after: post([title, AttributeDesign(name: "note", type: .string, isOptional: true)]),
            summary: "Post.note added (optional)", kind: .propertyAdded),
        Inferred(
            label: "attribute with a default added", before: post([title]),
            after: post([title, AttributeDesign(name: "views", type: .integer32, defaultValue: "0")]),
            summary: "Post.views added (default 0)", kind: .propertyAdded),
        Inferred(
            label: "attribute removed", before: post([title, AttributeDesign(name: "old", type: .string)]),
            after: post([title]), summary: "Post.old removed", kind: .propertyRemoved),
        Inferred(
            label: "attribute renamed by elementID", before: post([AttributeDesign(name: "name", type: .string)]),
            after: post([AttributeDesign(name: "title", type: .string, renamingIdentifier: "name")]),
            summary: "Post.name renamed to title", kind: .propertyRenamed),
        Inferred(
            label: "required made optional", before: post([title]),
            after: post([AttributeDesign(name: "title", type: .string, isOptional: true)]),
            summary: "Post.title made optional", kind: .madeOptional),
        Inferred(
            label: "optional made required with a default",
            before: post([AttributeDesign(name: "title", type: .string, isOptional: true)]),
            after: post([AttributeDesign(name: "title", type: .string, defaultValue: "Untitled")]),
            summary: #"Post.title made required (default "Untitled")"#, kind: .madeRequired),
        Inferred(
            label: "relationship added", before: post([title]), after: post([title], [tagsLink]),
            summary: "Post.tags added (default [])", kind: .propertyAdded),
        Inferred(
            label: "relationship removed", before: post([title], [tagLink]), after: post([title]),
            summary: "Post.tag removed", kind: .propertyRemoved),
        Inferred(
            label: "relationship renamed", before: post([title], [tagLink]),
            after: post(
                [title], [RelationshipDesign(name: "label", destination: "Tag", renamingIdentifier: "tag")]),
            summary: "Post.tag renamed to label", kind: .propertyRenamed),
        Inferred(
            label: "to-one became to-many", before: post([title], [tagLink]),
            after: post([title], [RelationshipDesign(name: "tag", destination: "Tag", isToMany: true)]),
            summary: "Post.tag became to-many", kind: .becameToMany),
        Inferred(
            label: "Integer 16 widened to Integer 32", before: post([AttributeDesign(name: "n", type: .integer16)]),
            after: post([AttributeDesign(name: "n", type: .integer32)]),
            summary: "Post.n widened from Integer 16 to Integer 32", kind: .typeWidened),
        Inferred(
            label: "Integer 32 widened to Integer 64", before: post([AttributeDesign(name: "n", type: .integer32)]),
            after: post([AttributeDesign(name: "n", type: .integer64)]),
            summary: "Post.n widened from Integer 32 to Integer 64", kind: .typeWidened),
        Inferred(
            label: "Integer widened to Double", before: post([AttributeDesign(name: "n", type: .integer32)]),
            after: post([AttributeDesign(name: "n", type: .double)]),
            summary: "Post.n widened from Integer 32 to Double", kind: .typeWidened),
        Inferred(
            label: "Float widened to Double", before: post([AttributeDesign(name: "n", type: .float)]),
            after: post([AttributeDesign(name: "n", type: .double)]),
            summary: "Post.n widened from Float to Double", kind: .typeWidened),
        Inferred(
            label: "entity renamed by elementID", before: post([title]),
            after: post([title], name: "Article", renamedFrom: "Post"), summary: "Post renamed to Article",
            kind: .entityRenamed),
    ]

    @Test("every change Core Data's lightweight migration infers is generated without user code", arguments: inferred)
    func lightweight(_ case: Inferred) throws {
        let plan = try Self.plan(Self.history([`case`.before, `case`.after]))
        let changes = plan.steps.flatMap(\.changes)
        let change = try #require(changes.first { $0.summary == `case`.summary }, "\(changes.map(\.summary))")
        #expect(change.kind == `case`.kind)
        #expect(change.isInferred)
        #expect(plan.hooks.isEmpty)
    }

    /// A change that may lose or invent data: it needs a hook in the human file.
    struct NeedsHook: Sendable, CustomTestStringConvertible {
        var label: String
        var before: EntityDesign
        var after: EntityDesign
        var hook: String
        var testDescription: String { label }
    }

    static let needsHook: [NeedsHook] = [
        NeedsHook(
            label: "narrowing", before: post([AttributeDesign(name: "rating", type: .double)]),
            after: post([AttributeDesign(name: "rating", type: .integer16)]), hook: "migrate_Post_rating_v1_to_v2"),
        NeedsHook(
            label: "Integer 64 to Double (not exact past 2^53)",
            before: post([AttributeDesign(name: "n", type: .integer64)]),
            after: post([AttributeDesign(name: "n", type: .double)]), hook: "migrate_Post_n_v1_to_v2"),
        NeedsHook(
            label: "String to Integer", before: post([AttributeDesign(name: "n", type: .string)]),
            after: post([AttributeDesign(name: "n", type: .integer32)]), hook: "migrate_Post_n_v1_to_v2"),
        NeedsHook(
            label: "required attribute added without a default", before: post([title]),
            after: post([title, AttributeDesign(name: "summary", type: .string)]),
            hook: "migrate_Post_summary_v1_to_v2"),
        NeedsHook(
            label: "made required without a default",
            before: post([AttributeDesign(name: "title", type: .string, isOptional: true)]),
            after: post([Self.title]), hook: "migrate_Post_title_v1_to_v2"),
        NeedsHook(
            label: "to-many became to-one", before: post([title], [tagsLink]),
            after: post([title], [RelationshipDesign(name: "tags", destination: "Tag")]),
            hook: "migrate_Post_tags_v1_to_v2"),
    ]

    @Test(
        "a change that may lose or invent data names a hook for the entity, property and versions", arguments: needsHook
    )
    func hooks(_ case: NeedsHook) throws {
        let plan = try Self.plan(Self.history([`case`.before, `case`.after]))
        #expect(plan.hooks.map(\.hook) == [`case`.hook])
        #expect(plan.lines.last?.contains("(hook \(`case`.hook))") == true)
    }

    @Test("an entity split off another (its elementID names one that remains) needs a hook on the source")
    func split() throws {
        let person = EntityDesign(
            name: "Person",
            attributes: [AttributeDesign(name: "name", type: .string), AttributeDesign(name: "street", type: .string)])
        var after = person
        after.attributes.removeLast()
        let address = EntityDesign(
            name: "Address", attributes: [AttributeDesign(name: "street", type: .string)], renamingIdentifier: "Person")
        let history = DesignHistory(
            name: "People", earlier: [.init(name: "1", design: ModelDesign(name: "People", entities: [person]))],
            current: .init(name: "2", design: ModelDesign(name: "People", entities: [after, address])))
        let plan = try Self.plan(history)
        #expect(plan.hooks.map(\.hook) == ["migrate_Person_split_Address_v1_to_v2"])
        #expect(plan.steps[0].line.contains("Address split from Person"))
        #expect(plan.steps[0].line.contains("Person.street removed"))
    }

    @Test("chained renames follow Core Data's renaming identifiers across three versions")
    func chainedRenames() throws {
        let history = Self.history([
            Self.post([AttributeDesign(name: "color", type: .string)]),
            Self.post([AttributeDesign(name: "colour", type: .string, renamingIdentifier: "color")]),
            Self.post(
                [AttributeDesign(name: "hue", type: .string, renamingIdentifier: "color")], name: "Article",
                renamedFrom: "Post"),
        ])
        let plan = try Self.plan(history)
        #expect(
            plan.steps.map(\.line) == [
                "v1 → v2: Post.color renamed to colour",
                "v2 → v3: Post renamed to Article; Article.colour renamed to hue",
            ])
    }

    @Test("generated steps rename, convert, fill and drop keys in that order, and call hooks before drops")
    func generatedCode() throws {
        let history = Self.history([
            Self.post([
                AttributeDesign(name: "color", type: .string, isOptional: true),
                AttributeDesign(name: "views", type: .integer16), AttributeDesign(name: "legacy", type: .string),
            ]),
            Self.post([
                AttributeDesign(name: "hexColor", type: .string, isOptional: true, renamingIdentifier: "color"),
                AttributeDesign(name: "views", type: .double), AttributeDesign(name: "summary", type: .string),
                AttributeDesign(name: "softDeleted", type: .boolean, defaultValue: "NO"),
            ]),
        ])
        let files = try ModelGenerator().render(history, designFile: "Blog.yaml")
        let machine = try #require(files.first { $0.name == "_Post.swift" }).contents
        let expected = [
            "static let designVersion = 2",
            "// v1 → v2: Post.color renamed to hexColor",
            "Migration(",
            "from: 1, to: 2,",
            #".rename("color", to: "hexColor"),"#,
            #".integerToDouble("views"),"#,
            #".fill("softDeleted", .bool(false)),"#,
            ".run { tree in try Post.migrate_Post_summary_v1_to_v2(&tree) },",
            #".remove("legacy"),"#,
            "protocol PostMigrationHooks {",
            "static func migrate_Post_summary_v1_to_v2(_ tree: inout KeyValue) throws",
            "extension Post: PostMigrationHooks {}",
        ]
        var position = machine.startIndex
        for line in expected {
            let found = try #require(
                machine.range(of: line, range: position..<machine.endIndex),
                "missing or out of order: \(line)\n\(machine)")
            position = found.upperBound
        }
        let tag = try #require(files.first { $0.name == "_Tag.swift" }).contents
        #expect(tag.contains("Migration(from: 1, to: 2, edits: []),"))
        #expect(!tag.contains("MigrationHooks"))
    }

    @Test("a design with one version generates version 1 and no steps, and prints no plan")
    func singleVersion() throws {
        let design = ModelDesign(name: "Blog", entities: [Self.post([Self.title])])
        let plan = try Self.plan(DesignHistory(design))
        #expect(plan.lines.isEmpty && plan.steps.isEmpty && plan.currentVersion == 1)
        let machine = try #require(try ModelGenerator().render(design, designFile: "Blog.yaml").first).contents
        #expect(machine.contains("static let designVersion = 1"))
        #expect(machine.contains("static let designMigrations: [Migration] = []"))
    }

    @Test("an entity added in a later version has steps only from the version it appears in")
    func addedEntity() throws {
        let draft = EntityDesign(name: "Draft", attributes: [Self.title])
        let history = DesignHistory(
            name: "Blog",
            earlier: [
                .init(name: "1", design: ModelDesign(name: "Blog", entities: [Self.post([Self.title])])),
                .init(name: "2", design: ModelDesign(name: "Blog", entities: [Self.post([Self.title]), draft])),
            ],
            current: .init(name: "3", design: ModelDesign(name: "Blog", entities: [Self.post([Self.title]), draft])))
        let files = try ModelGenerator().render(history, designFile: "Blog.yaml")
        let machine = try #require(files.first { $0.name == "_Draft.swift" }).contents
        #expect(!machine.contains("Migration(from: 1"))
        #expect(machine.contains("Migration(from: 2, to: 3, edits: []),"))
        #expect(try Self.plan(history).steps[0].line == "v1 → v2: Draft added")
    }

    @Test("an earlier version that does not resolve is an error naming that version")
    func badEarlierVersion() throws {
        let broken = EntityDesign(
            name: "Post", relationships: [RelationshipDesign(name: "owner", destination: "Nobody")])
        let history = DesignHistory(
            name: "Blog", earlier: [.init(name: "Old", design: ModelDesign(name: "Blog", entities: [broken]))],
            current: .init(name: "New", design: ModelDesign(name: "Blog", entities: [Self.post([Self.title])])))
        let error = try #require(throws: ModelGenError.self) { try Self.plan(history) }
        #expect(error.message.contains("version 'Old'"))
    }
}
