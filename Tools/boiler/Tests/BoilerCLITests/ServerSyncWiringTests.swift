import Foundation
import Testing

@testable import BoilerCLI

/// The server template speaks the sync protocol: Note and every added resource are revisioned,
/// every table keeps a change feed, and the kit's sync routes are mounted under `/sync`.
@Suite("Server sync wiring")
struct ServerSyncWiringTests {
    func plan(database: DatabaseKind? = nil) throws -> ScaffoldPlan {
        let options = ProjectOptions(
            name: try ProjectName("Notes"), template: .server, packages: nil, kit: .path("/src/boilerplate"),
            database: database)
        return try Scaffolder(options: options).plan(in: URL(fileURLWithPath: "/tmp/Notes"))
    }

    func file(_ path: String, in plan: ScaffoldPlan) throws -> String {
        try #require(plan.files.first { $0.path == path }, "no \(path) in the plan").contents
    }

    @Test("Note is revisioned: the design holds an Int revision that defaults to 0, Note.swift conforms")
    func noteIsRevisioned() throws {
        let plan = try plan()
        let design = try file("Sources/NotesCore/Designs/Model.xcdatamodeld/Model.xcdatamodel/contents", in: plan)
        #expect(design.contains(#"<attribute name="revision" attributeType="Integer 64" defaultValueString="0""#))
        #expect(design.contains(#"<entry key="boiler.type" value="Int"/>"#))
        let note = try file("Sources/NotesCore/Model/Note.swift", in: plan)
        #expect(note.contains("QueryableRecord, RevisionedRecord {"))
    }

    @Test("every table keeps a change feed, on SQLite and on PostgreSQL", arguments: [DatabaseKind.sqlite, .postgres])
    func changeFeeds(database: DatabaseKind) throws {
        let source = try file("Sources/NotesCore/NotesDatabase.swift", in: plan(database: database))
        #expect(source.contains(#"table: "notes", changeFeed: true)"#))
        #expect(source.contains("table: table, changeFeed: true)"))
        #expect(!source.contains("table: table)"))
        if database == .postgres {
            #expect(source.contains(#"PostgresRecordBackend<Note>(url: url, table: "notes", changeFeed: true)"#))
        }
    }

    @Test("the server mounts the notes' and the resources' sync routes under /sync, and main prunes them")
    func mounted() throws {
        let plan = try plan()
        let sync = try file("Sources/NotesCore/HTTP/NotesSync.swift", in: plan)
        #expect(sync.contains("sync.serve(try await notes.syncRoutes())"))
        #expect(sync.contains("mount(group, authorize)"))
        // The notes' sync writes pass the commands' checks and announce the commands' events.
        let noteSync = try file("Sources/NotesCore/HTTP/NoteSyncRoutes.swift", in: plan)
        #expect(noteSync.contains("try checkNote(record)"))
        #expect(noteSync.contains("bus.trigger(NoteCreated(note: record))"))
        #expect(noteSync.contains("bus.trigger(NoteDeleted(id: write.id))"))
        let commands = try file("Sources/NotesCore/Commands/NoteCommands.swift", in: plan)
        #expect(commands.contains(#"_ = try checkedNoteText(record.text, "text", required: true)"#))
        #expect(sync.contains(#"router.group("sync")"#))
        #expect(sync.contains("try await resources.addSync(to: &sync)"))
        let server = try file("Sources/NotesCore/NotesServer.swift", in: plan)
        #expect(server.contains("sync?.add(to: router)"))
        let main = try file("Sources/Notes/main.swift", in: plan)
        #expect(main.contains("NotesSync.open(notes: domain, resources: resources)"))
        #expect(main.contains("sync: sync, host: host"))
        #expect(main.contains("services.register(NotesSyncPruning.self)"))
        #expect(try file("Tests/NotesCoreTests/TestServer.swift", in: plan).contains("sync: sync, port: 0"))
        // With no resource yet the wiring still declares addSync, which the sync file calls.
        #expect(
            try file("Sources/NotesCore/Generated/_Resources.swift", in: plan).contains(
                "public func addSync(to sync: inout NotesSync) async throws {"))
    }

    @Test("a stale revision is a 409 problem, and Note's sync tests drive /sync/notes")
    func conflictsAndTests() throws {
        let plan = try plan()
        let problems = try file("Sources/NotesCore/HTTP/ProblemDetails.swift", in: plan)
        #expect(problems.contains("case RecordStoreError.staleRevision:"))
        #expect(problems.contains(#"type: "urn:notes:problem:stale-revision", title: Self.title(409), status: 409,"#))
        let tests = try file("Tests/NotesCoreTests/NoteSyncTests.swift", in: plan)
        #expect(tests.contains(#"uri: "/sync/notes/changes""#))
        #expect(tests.contains(#"conflict.reason == "staleRevision""#))
        #expect(tests.contains(#"problem.type == "urn:notes:problem:stale-revision""#))
        #expect(!tests.contains("{{"))
    }
}
