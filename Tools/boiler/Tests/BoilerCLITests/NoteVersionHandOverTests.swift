import Foundation
import Testing

@testable import BoilerCLI

/// Projects made before ModelGen generated migrations declare `version = 1` and
/// `migrations = []` in their `Note.swift`; today's templates say `version = designVersion` and
/// `migrations = designMigrations`, so the steps ModelGen generates from the design's versions are
/// used. ModelGen never rewrites a human file, so `boiler update` carries the two-line edit
/// through its ordinary three-way merge: an untouched file is replaced, an edited one merged, and
/// an owner who already wrote their own version or steps gets a conflict, never a silent loss.
@Suite("boiler update hands Note's version and migrations over to the design")
struct NoteVersionHandOverTests {
    static let path = "Sources/NotesCore/Model/Note.swift"

    /// Today's `Note.swift` as the templates wrote it before the hand-over.
    static func older(_ today: String) -> String {
        today.replacing(
            """
                /// The version stamped on saved notes: the design's current version. Add a version to the
                /// design (a new .xcdatamodel in Model.xcdatamodeld) and ModelGen raises it.
                public static let version = designVersion

                /// Steps that rewrite notes saved by older versions, oldest first: the ones ModelGen generates
                /// from the design's versions (hand-written steps for data older than the design's first
                /// version go before them).
                public static let migrations: [Migration] = designMigrations
            """,
            with: """
                    /// The version stamped on saved notes. When the design's stored shape changes
                    /// (`Note.modelVersionHash`), raise it and add a migration from the previous version.
                    public static let version = 1

                    /// Steps that rewrite notes saved by older versions, oldest first.
                    public static let migrations: [Migration] = []
                """)
    }

    @Test("new projects use the generated declarations, in the server and the app template")
    func newProjects() throws {
        for template in [TemplateKind.server, .app] {
            let project = try UpdateTestProject(template)
            defer { project.remove() }
            let text = try project.text(Self.path)
            #expect(text.contains("public static let version = designVersion"), "\(template)")
            #expect(text.contains("public static let migrations: [Migration] = designMigrations"), "\(template)")
        }
    }

    @Test("an untouched older Note.swift is replaced, and an edited one keeps the owner's lines")
    func carried() throws {
        for template in [TemplateKind.server, .app] {
            let project = try UpdateTestProject(template)
            defer { project.remove() }
            let today = try project.text(Self.path)
            try project.makeOlder(Self.path, Self.older)
            #expect(try project.plan().entries.first { $0.path == Self.path }?.action == .update)
            #expect(try project.update().isEmpty)
            #expect(try project.text(Self.path) == today, "\(template)")

            let edited = try UpdateTestProject(template)
            defer { edited.remove() }
            try edited.makeOlder(Self.path, Self.older)
            let mine =
                try edited.text(Self.path)
                + "\nextension Note {\n    /// The owner's.\n    var isShort: Bool { text.count < 10 }\n}\n"
            try edited.write(Self.path, mine)
            #expect(try edited.plan().entries.first { $0.path == Self.path }?.action == .merge)
            #expect(try edited.update().isEmpty)
            let merged = try edited.text(Self.path)
            #expect(merged.contains("public static let version = designVersion"), "\(template)")
            #expect(merged.contains("public static let migrations: [Migration] = designMigrations"), "\(template)")
            #expect(merged.hasSuffix("var isShort: Bool { text.count < 10 }\n}\n"), "\(template)")
        }
    }

    @Test("an owner who raised the version by hand gets a conflict naming both sides, not a silent loss")
    func ownVersionConflicts() throws {
        let project = try UpdateTestProject(.server)
        defer { project.remove() }
        try project.makeOlder(Self.path, Self.older)
        let mine = try project.text(Self.path).replacing(
            "public static let version = 1", with: "public static let version = 2")
        try project.write(Self.path, mine)
        #expect(try project.update() == [Self.path])
        let marked = try project.text(Self.path)
        #expect(marked.contains("<<<<<<< yours: \(Self.path)"))
        #expect(marked.contains("public static let version = 2"))
        #expect(marked.contains("public static let version = designVersion"))
    }
}
