import Foundation
import Testing

@testable import BoilerCLI

@Suite("The server template's plan")
struct ServerTemplatePlanTests {
    func plan(database: DatabaseKind? = nil) throws -> ScaffoldPlan {
        let options = ProjectOptions(
            name: try ProjectName("Notes"), template: .server, packages: nil, kit: .path("/src/boilerplate"),
            database: database)
        return try Scaffolder(options: options).plan(in: URL(fileURLWithPath: "/tmp/Notes"))
    }

    func file(_ path: String, in plan: ScaffoldPlan) throws -> String {
        try #require(plan.files.first { $0.path == path }, "no \(path) in the plan").contents
    }

    @Test("the tree: a model design, commands, a record store, routes, problem details, a service, tests")
    func tree() throws {
        #expect(
            try plan().files.map(\.path) == [
                ".boiler.json", ".gitignore", "Makefile", "Package.swift", "README.md",
                "Sources/Notes/main.swift", "Sources/NotesCore/Commands/NoteCommands.swift",
                "Sources/NotesCore/Designs/Model.xcdatamodeld/Model.xcdatamodel/contents",
                "Sources/NotesCore/Generated/_Parts.swift", "Sources/NotesCore/Generated/_Resources.swift",
                "Sources/NotesCore/HTTP/NoteRoutes.swift", "Sources/NotesCore/HTTP/NoteSyncRoutes.swift",
                "Sources/NotesCore/HTTP/NotesSync.swift",
                "Sources/NotesCore/HTTP/ProblemDetails.swift",
                "Sources/NotesCore/Model/Note.swift", "Sources/NotesCore/Model/NoteEvents.swift",
                "Sources/NotesCore/Model/NotesError.swift", "Sources/NotesCore/NoteDomain.swift",
                "Sources/NotesCore/NotesDatabase.swift", "Sources/NotesCore/NotesServer.swift",
                "Sources/NotesCore/Services/NoteActivityLog.swift", "Tests/NotesCoreTests/NoteCommandTests.swift",
                "Tests/NotesCoreTests/NoteRoutesTests.swift", "Tests/NotesCoreTests/NoteSyncTests.swift",
                "Tests/NotesCoreTests/ProblemResponseTests.swift", "Tests/NotesCoreTests/SettingsTests.swift",
                "Tests/NotesCoreTests/TestServer.swift",
            ])
    }

    @Test("the manifest depends on the kit where it was told, Hummingbird 2.28.1 and the server add-ons")
    func manifest() throws {
        let manifest = try file("Package.swift", in: plan())
        #expect(manifest.contains(#".package(path: "/src/boilerplate")"#))
        #expect(
            manifest.contains(#".package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1")"#))
        for product in [
            "Boilerplate", "BoilerplateLogging", "StorageSQLite", "StorageSyncServer", "BoilerplateServiceLifecycle",
        ] {
            #expect(manifest.contains(#".product(name: "\#(product)", package: "boilerplate")"#))
        }
        #expect(manifest.contains(#".product(name: "HummingbirdTesting", package: "hummingbird")"#))
        #expect(!manifest.contains("StoragePostgres"))
        #expect(manifest.contains(#"plugins: [.plugin(name: "ModelGenPlugin", package: "boilerplate")]"#))
        #expect(!manifest.contains("{{"))
    }

    @Test("--database postgres adds StoragePostgres, reads DATABASE_URL and documents it; the record keeps the choice")
    func postgres() throws {
        let plan = try plan(database: .postgres)
        #expect(
            try file("Package.swift", in: plan).contains(#".product(name: "StoragePostgres", package: "boilerplate"),"#)
        )
        let database = try file("Sources/NotesCore/NotesDatabase.swift", in: plan)
        #expect(database.contains(#"environment["DATABASE_URL"]"#))
        #expect(database.contains("PostgresRecordBackend<Note>(url: url, table: \"notes\", changeFeed: true)"))
        #expect(try file("README.md", in: plan).contains("| `DATABASE_URL`"))
        #expect(try file("README.md", in: plan).contains("TEST_DATABASE_URL"))
        // Its tests start a real PostgreSQL themselves.
        #expect(
            try file("Package.swift", in: plan).contains(
                #".product(name: "StoragePostgresTesting", package: "boilerplate"),"#))
        let postgresTests = try file("Tests/NotesCoreTests/PostgresRoutesTests.swift", in: plan)
        #expect(postgresTests.contains("PostgresTestServer.with") && postgresTests.contains("func twoInstances()"))
        #expect(try !file("Package.swift", in: try self.plan()).contains("StoragePostgresTesting"))
        #expect(plan.files.contains { $0.path == "Tests/NotesCoreTests/PostgresRoutesTests.swift" })
        #expect(try file(".boiler.json", in: plan).contains(#""database" : "postgres""#))
        let sqlitePlan = try self.plan()
        #expect(try file(".boiler.json", in: sqlitePlan).contains(#""database" : "sqlite""#))
        #expect(!(try file("Sources/NotesCore/NotesDatabase.swift", in: sqlitePlan)).contains("DATABASE_URL"))
    }

    @Test("the README documents the API, the settings and the graceful shutdown")
    func readme() throws {
        let readme = try file("README.md", in: plan())
        #expect(readme.contains("A server project made with `boiler new`"))
        #expect(readme.contains("curl 'localhost:8080/notes?limit=20&offset=0&q=milk&pinned=false'"))
        #expect(readme.contains("| `DATABASE_PATH` | `notes.sqlite`"))
        #expect(readme.contains("SIGTERM"))
        #expect(readme.contains("`boiler add resource Tag name:String count:Int note:String?`"))
        #expect(!readme.contains("DATABASE_URL"))
    }

    @Test("every name in the generated sources comes from the project's name")
    func renamed() throws {
        let options = ProjectOptions(
            name: try ProjectName("todo list"), template: .server, packages: nil, kit: .path("/k"))
        let plan = try Scaffolder(options: options).plan(in: URL(fileURLWithPath: "/tmp/TodoList"))
        let routes = try file("Sources/TodoListCore/HTTP/ProblemDetails.swift", in: plan)
        #expect(routes.contains("urn:todolist:problem:"))
        #expect(plan.files.contains { $0.path == "Sources/TodoList/main.swift" })
    }

    @Test("--packages and --database with another template are refused with what to do instead")
    func refusals() throws {
        let withPackages = ProjectOptions(
            name: try ProjectName("Notes"), template: .server, packages: ["Commands"], kit: .path("/k"))
        #expect {
            try Scaffolder(options: withPackages)
        } throws: { error in
            (error as? BoilerError)?.message.contains("no --packages with the server template") == true
        }
        let databaseForLibrary = ProjectOptions(
            name: try ProjectName("Notes"), template: .library, packages: nil, kit: .path("/k"), database: .postgres)
        #expect {
            try Scaffolder(options: databaseForLibrary)
        } throws: { error in
            (error as? BoilerError)?.message.contains("no --database except with --template server") == true
        }
    }
}
