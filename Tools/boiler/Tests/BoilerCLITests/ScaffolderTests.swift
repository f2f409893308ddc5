import Foundation
import Testing

@testable import BoilerCLI

@Suite("Scaffolding plans")
struct ScaffolderTests {
    func plan(_ template: TemplateKind, packages: [String]? = nil, name: String = "Notes") throws -> ScaffoldPlan {
        let options = ProjectOptions(
            name: try ProjectName(name), template: template, packages: packages, kit: .path("/src/boilerplate"))
        return try Scaffolder(options: options).plan(in: URL(fileURLWithPath: "/tmp/Notes"))
    }

    @Test("the library template's tree")
    func libraryTree() throws {
        #expect(
            try plan(.library).files.map(\.path) == [
                ".boiler.json", ".gitignore", "Makefile", "Package.swift", "README.md",
                "Sources/Notes/Events/ItemAdded.swift", "Sources/Notes/Items/AddItem.swift",
                "Sources/Notes/Items/ItemsModel.swift", "Sources/Notes/NotesError.swift",
                "Sources/Notes/Routes/ItemRoutes.swift", "Tests/NotesTests/AddItemTests.swift",
                "Tests/NotesTests/ItemAddedTests.swift", "Tests/NotesTests/ItemRoutesTests.swift",
                "Tests/NotesTests/NotesErrorTests.swift",
            ])
    }

    @Test("the cli template's tree")
    func cliTree() throws {
        #expect(
            try plan(.cli).files.map(\.path) == [
                ".boiler.json", ".gitignore", "Makefile", "Package.swift", "README.md",
                "Sources/Notes/NotesTool.swift", "Sources/NotesCore/Events/ItemAdded.swift",
                "Sources/NotesCore/Items/AddItem.swift", "Sources/NotesCore/Items/ItemsModel.swift",
                "Sources/NotesCore/NotesError.swift", "Sources/NotesCore/Routes/ItemRoutes.swift",
                "Tests/NotesCoreTests/AddItemTests.swift", "Tests/NotesCoreTests/ItemAddedTests.swift",
                "Tests/NotesCoreTests/ItemRoutesTests.swift", "Tests/NotesCoreTests/NotesErrorTests.swift",
            ])
    }

    @Test("the app template's tree: a model design, commands, routes, a service, an executable, tests")
    func appTree() throws {
        #expect(
            try plan(.app).files.map(\.path) == [
                ".boiler.json", ".gitignore", "Makefile", "Package.swift", "README.md",
                "Sources/Notes/main.swift", "Sources/NotesCore/Commands/AddNote.swift",
                "Sources/NotesCore/Commands/ImportNotes.swift", "Sources/NotesCore/Commands/NoteCommands.swift",
                "Sources/NotesCore/Commands/PinNote.swift",
                "Sources/NotesCore/Designs/Model.xcdatamodeld/Model.xcdatamodel/contents",
                "Sources/NotesCore/Generated/_Parts.swift",
                "Sources/NotesCore/Model/Note.swift", "Sources/NotesCore/Model/NotesModel.swift",
                "Sources/NotesCore/NotesApp.swift", "Sources/NotesCore/Routes/NoteRoutes.swift",
                "Sources/NotesCore/Services/ActivityLogService.swift", "Tests/NotesCoreTests/ImportNotesTests.swift",
                "Tests/NotesCoreTests/NoteCommandsTests.swift", "Tests/NotesCoreTests/NotesAppTests.swift",
            ])
        let manifest = try #require(try plan(.app).files.first { $0.path == "Package.swift" }).contents
        #expect(manifest.contains(#"plugins: [.plugin(name: "ModelGenPlugin", package: "boilerplate")]"#))
        // The tests use the kit's test doubles: the stub transport comes from NetworkingTesting.
        #expect(manifest.contains(#".product(name: "NetworkingTesting", package: "boilerplate")"#))
    }

    @Test("the app template refuses --packages, since it wires everything through AppCore")
    func appWithPackages() throws {
        let options = ProjectOptions(
            name: try ProjectName("Notes"), template: .app, packages: ["Commands"], kit: .path("/k"))
        #expect {
            try Scaffolder(options: options)
        } throws: { error in
            (error as? BoilerError)?.message.contains("no --packages with the app template") == true
        }
    }

    @Test("--packages leaves out the samples of the packages it leaves out")
    func packagesSubset() throws {
        let files = try plan(.library, packages: ["Commands", "EventBus"]).files
        let manifest = try #require(files.first { $0.path == "Package.swift" }).contents
        #expect(manifest.contains(#".product(name: "Commands", package: "boilerplate")"#))
        #expect(manifest.contains(#".product(name: "EventBus", package: "boilerplate")"#))
        #expect(!manifest.contains("Boilerplate\""))
        #expect(!files.contains { $0.path.contains("Routes") })
        let command = try #require(files.first { $0.path.hasSuffix("AddItem.swift") }).contents
        #expect(command.hasPrefix("import Commands\n"))
        let error = try #require(files.first { $0.path.hasSuffix("NotesError.swift") }).contents
        #expect(!error.contains("AppError"))
    }

    @Test("the umbrella is imported when no packages are picked, and the kit is named by its identity")
    func umbrella() throws {
        let files = try plan(.library).files
        let manifest = try #require(files.first { $0.path == "Package.swift" }).contents
        #expect(manifest.contains(#".package(path: "/src/boilerplate")"#))
        #expect(manifest.contains(#".product(name: "Boilerplate", package: "boilerplate")"#))
        #expect(
            try #require(files.first { $0.path.hasSuffix("AddItem.swift") }).contents.hasPrefix("import Boilerplate\n"))
    }

    @Test("no template leaves a placeholder unrendered", arguments: TemplateKind.allCases)
    func noPlaceholdersLeft(template: TemplateKind) throws {
        for file in try plan(template).files {
            #expect(!file.contents.contains("{{"), "\(file.path) has an unrendered placeholder")
        }
    }

    @Test("a kit URL becomes a versioned dependency")
    func kitURL() throws {
        let options = ProjectOptions(
            name: try ProjectName("Notes"), template: .library, packages: nil,
            kit: .url("https://github.com/boilerplate-swift/boilerplate.git", version: "0.1.0"))
        let manifest = try #require(
            try Scaffolder(options: options).plan(in: URL(fileURLWithPath: "/tmp/x")).files.first {
                $0.path == "Package.swift"
            }
        ).contents
        #expect(
            manifest.contains(#".package(url: "https://github.com/boilerplate-swift/boilerplate.git", from: "0.1.0")"#))
        #expect(manifest.contains(#"package: "boilerplate")"#))
    }

    @Test("unknown packages are refused with the list of known ones")
    func unknownPackage() throws {
        let options = ProjectOptions(
            name: try ProjectName("Notes"), template: .library, packages: ["Routerr"], kit: .path("/k"))
        #expect {
            try Scaffolder(options: options)
        } throws: { error in
            (error as? BoilerError)?.message.contains("'Routerr' is not valid") == true
        }
    }

    @Test("the record lists every generated file with the hash of what was written")
    func record() throws {
        let plan = try plan(.library)
        let json = try #require(plan.files.first { $0.path == ".boiler.json" }).contents
        let record = try JSONDecoder().decode(ProjectRecord.self, from: Data(json.utf8))
        #expect(record.module == "Notes")
        #expect(record.files.count == plan.files.count - 1)
        let readme = try #require(plan.files.first { $0.path == "README.md" })
        #expect(record.files["README.md"] == ProjectRecord.hash(readme.contents))
    }

    func options(_ template: TemplateKind = .app, values: [String: String]) throws -> ProjectOptions {
        ProjectOptions(
            name: try ProjectName("Notes"), template: template, packages: nil, kit: .path("/k"), values: values)
    }

    @Test("--set bundleID and summary reach the files that use them; the defaults apply without them")
    func setValues() throws {
        let folder = URL(fileURLWithPath: "/tmp/Notes")
        let given = try Scaffolder(
            options: options(values: ["bundleID": "org.acme.notes", "summary": "Notes & {{x}}"])
        )
        .plan(in: folder).files
        let app = try #require(given.first { $0.path == "Sources/NotesCore/NotesApp.swift" }).contents
        #expect(app.contains(#"app: "org.acme.notes""#))
        #expect(!app.contains("com.example.notes"))
        let readme = try #require(given.first { $0.path == "README.md" }).contents
        #expect(readme.hasPrefix("# Notes\n\nNotes & {{x}}\n\nAn app project"))

        let plain = try Scaffolder(options: options(values: [:])).plan(in: folder).files
        #expect(
            try #require(plain.first { $0.path == "Sources/NotesCore/NotesApp.swift" }).contents.contains(
                #"app: "com.example.notes""#))
        #expect(try #require(plain.first { $0.path == "README.md" }).contents.hasPrefix("# Notes\n\nAn app project"))
    }

    @Test("--set refuses a key no template reads, a key boiler works out, and values that would break a file")
    func setRefusals() throws {
        for (key, value) in [("Name", "Other"), ("kitPackage", "x"), ("import:Router", "X"), ("colour", "blue")] {
            #expect {
                try Scaffolder(options: options(values: [key: value]))
            } throws: { error in
                guard case .invalidOption("set", let named, let expected) = error as? BoilerError else { return false }
                return named == key && expected.hasPrefix("one of bundleID, summary")
            }
        }
        for bad in ["notes", "com..notes", "com.example.", #"com.x"); evil("#, "com.ex ample", "com.exämple"] {
            #expect(throws: BoilerError.self, "\(bad)") { try Scaffolder(options: options(values: ["bundleID": bad])) }
        }
        for bad in ["", "  ", "two\nlines", "tab\there"] {
            #expect(throws: BoilerError.self, "\(bad)") { try Scaffolder(options: options(values: ["summary": bad])) }
        }
        _ = try Scaffolder(
            options: options(values: ["bundleID": "io.github.my-team.Notes2", "summary": "Ünïcode fine"]))
    }
}
