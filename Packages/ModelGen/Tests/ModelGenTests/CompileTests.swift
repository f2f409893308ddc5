import Foundation
import Testing

@testable import ModelGen

/// The generated code compiles and round-trips through Serialization: every design's output
/// goes into a scratch SwiftPM package (one target per design, beside a stub `UIKit` module and
/// stubs for the user types the designs name) that depends on the kit's Serialization, and
/// `swift build` builds it along with a `roundtrip` executable that encodes and decodes values.
/// One more target, `QueryableModels`, is generated with ``GenerationOptions/queryable`` and
/// builds against the kit's Storage; `roundtrip` runs key-path queries on it in a `RecordStore`.
/// The package depends on the repository's root package, as an app does.
///
/// It is slow (one build for all designs). The scratch package lives in the temporary folder
/// under a fixed name so reruns reuse its build. It never builds in the shared build folder
/// `make test` names (``SharedBuildFolder``): every module there is visible to every later build,
/// and its stub `UIKit` would turn `#if canImport(UIKit)` true in the kit's dependencies
/// (swift-property-based's colour generators then fail to build). Set `MODELGEN_SKIP_COMPILE=1`
/// to skip it while iterating.
@Suite("Generated code compiles", .serialized)
struct CompileTests {
    static var skipped: Bool { ProcessInfo.processInfo.environment["MODELGEN_SKIP_COMPILE"] == "1" }

    static let stubs: [String: String] = [
        "Mogenerator": "public enum Gender: Int16, Codable, Sendable, Hashable { case unknown = 0, female, male }\n",
        "SwiftGen": """
        import Serialization

        public struct CustomArray: Codable, Sendable, Hashable { public var items: [String] }
        public struct CustomPolyline: Codable, Sendable, Hashable { public var points: [Double] }

        // The hooks SwiftGen's two versions need: version 2 made these required without a default.
        extension MainEntity {
            static func migrate_MainEntity_boolean_v1_to_v2(_ tree: inout KeyValue) throws {
                if tree["boolean"]?.isNull ?? true { tree["boolean"] = false }
            }
            static func migrate_MainEntity_string_v1_to_v2(_ tree: inout KeyValue) throws {
                if tree["string"]?.isNull ?? true { tree["string"] = "" }
            }
        }
        extension ChildEntity {
            static func migrate_ChildEntity_boolean_v1_to_v2(_ tree: inout KeyValue) throws {
                try MainEntity.migrate_MainEntity_boolean_v1_to_v2(&tree)
            }
            static func migrate_ChildEntity_string_v1_to_v2(_ tree: inout KeyValue) throws {
                try MainEntity.migrate_MainEntity_string_v1_to_v2(&tree)
            }
            static func migrate_ChildEntity_now_v1_to_v2(_ tree: inout KeyValue) throws {
                tree["now"] = .double(0)
            }
        }
        extension SecondaryEntity {
            static func migrate_SecondaryEntity_name_v1_to_v2(_ tree: inout KeyValue) throws {
                tree["name"] = ""
            }
        }

        """,
    ]

    /// The scratch package's folder: fixed, so reruns reuse its build.
    static let root = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-compile-check")

    /// Writes the whole scratch package once per run: every test of this suite builds the same
    /// package, so whichever runs first pays for the build and the others find it up to date
    /// (rewriting the sources would make each rebuild the generated modules).
    static func preparePackage() throws { try prepared.get() }

    private static let prepared = Result<Void, any Error> { try writePackage() }

    private static func writePackage() throws {
        let sources = root.appendingPathComponent("Sources")
        Fixtures.remove(sources)
        try Fixtures.write(Self.manifest, to: "Package.swift", in: root)
        try Fixtures.write(
            "public struct UIColor: Codable, Sendable, Hashable {\n    public var hex: String\n"
                + "    public init(hex: String) { self.hex = hex }\n}\n", to: "UIColor.swift",
            in: sources.appendingPathComponent("UIKit"))
        for fixture in Fixtures.all {
            let folder = sources.appendingPathComponent(fixture.module)
            try ModelGenerator().generate(from: fixture.url, into: folder)
            if let stub = Self.stubs[fixture.module] { try Fixtures.write(stub, to: "Stubs.swift", in: folder) }
        }
        let queryable = try Fixtures.write(QueryableConformanceTests.notes, to: "Notes.modelgen.yaml", in: root)
        try ModelGenerator(options: GenerationOptions(queryable: true)).generate(
            from: queryable, into: sources.appendingPathComponent("QueryableModels"))
        try Fixtures.write(Self.roundTrip, to: "main.swift", in: sources.appendingPathComponent("roundtrip"))
        try prepareEvolution(in: sources)
    }

    @Test("every design's output builds and round-trips in a scratch package", .enabled(if: !skipped))
    func compiles() async throws {
        let root = Self.root
        try Self.preparePackage()
        let build = try await ChildProcess.run(["swift", "build", "--package-path", root.path], in: root)
        #expect(build.status == 0, "swift build failed:\n\(build.output.suffix(6000))")
        guard build.status == 0 else { return }
        let trip = try await ChildProcess.run([root.appendingPathComponent(".build/debug/roundtrip").path], in: root)
        #expect(trip.status == 0, "round trip failed:\n\(trip.output)")
        #expect(trip.output.contains("round-trip OK"))
        #expect(trip.output.contains("query OK"))
    }

    static var manifest: String {
        let modules = Fixtures.all.map { "\"\($0.module)\"" }.joined(separator: ", ")
        return """
            // swift-tools-version: 6.0
            // Written by ModelGen's CompileTests: generated models built against Serialization.
            import PackageDescription

            let designs = [\(modules)]
            let serialization = Target.Dependency.product(name: "Serialization", package: "\(Fixtures.kitPackage)")
            let storage = Target.Dependency.product(name: "Storage", package: "\(Fixtures.kitPackage)")
            let storageSQLite = Target.Dependency.product(name: "StorageSQLite", package: "\(Fixtures.kitPackage)")
            // A design whose hooks are not implemented fails to build: only asked for by name.
            let unhooked: [Target] =
                Context.environment["MODELGEN_UNHOOKED"] == "1" ? [.target(name: "Unhooked", dependencies: [serialization])] : []
            let package = Package(
                name: "ModelGenCompileCheck",
                platforms: [.macOS(.v14), .iOS(.v17)],
                dependencies: [.package(path: "\(Fixtures.repositoryRoot.path)")],
                targets: [.target(name: "UIKit")]
                    + designs.map { .target(name: $0, dependencies: ["UIKit", serialization]) }
                    + [.target(name: "QueryableModels", dependencies: [serialization, storage])]
                    + [
                        .executableTarget(
                            name: "roundtrip",
                            dependencies: designs.map { .target(name: $0) } + ["QueryableModels", serialization, storage]),
                        .target(name: "BlogV1", dependencies: [serialization]),
                        .target(name: "Blog", dependencies: [serialization]),
                        .executableTarget(
                            name: "evolve", dependencies: ["BlogV1", "Blog", serialization, storage, storageSQLite]),
                    ] + unhooked
            )

            """
    }

    static let roundTrip = """
        // Encodes and decodes generated values through Serialization and checks they come back equal.
        import Foundation
        import Mogenerator
        import MogenSwift
        import QueryableModels
        import Serialization
        import Spot
        import Storage
        import SwiftGen
        import TSBoilerplate

        var failures = 0
        func roundTrips<T: Codable & Equatable>(_ value: T, _ label: String) -> Bool {
            do {
                let json = Serializer(.json)
                let back = try json.read(T.self, from: try json.data(value))
                if back == value { return true }
                print("mismatch: \\(label)")
            } catch {
                print("error: \\(label): \\(error)")
            }
            return false
        }
        @MainActor func check<T: Codable & Equatable>(_ value: T, _ label: String) {
            if !roundTrips(value, label) { failures += 1 }
        }

        let date = Date(timeIntervalSince1970: 1_000_000)
        let book = TSBoilerplate.Book(author: "Ann", blurb: nil, price: "9", title: "Tides")
        check(book, "Book")
        if let tree = try? Serializer(.json).tree(book) {
            if tree["model_version"] != .int(TSBoilerplate.Book.version) {
                print("mismatch: Book is not stamped with its version")
                failures += 1
            }
        }
        check(
            Mogenerator.Parent(
                age: 40, gender: .female, humanName: "Ann", myDate: date, myDecimal: Decimal(string: "12.5"),
                myFloat: 1.5, myInt16Transient: 3, myInt64: 1 << 40, myString: "s",
                children: [Mogenerator.Child(gender: .male, childName: "Bo")]),
            "Parent")
        check(MogenSwift.UnorderedToManySrc(tag: 1, relationship: [MogenSwift.UnorderedToManyDst(tag: 2)]), "Src")
        check(Spot.TestDefaults(), "TestDefaults")
        check([Spot.Gender.female, Spot.Gender.male], "Gender")
        check(Spot.TestRegEnum.hot(1.5), "TestRegEnum")
        check(Spot.TestAssociatedEnum.decodableToOneType(Spot.Employee(name: "E", title: nil)), "TestAssociatedEnum")
        check(Spot.TestCollections(arrayOfStrings: ["a"], dicOfInts: ["a": 1], setOfStrings: ["s"]), "TestCollections")
        check(
            SwiftGen.MainEntity(
                boolean: true, date: date, string: "s", uri: URL(string: "https://example.com"),
                uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), oneToOne: "secondary-1"),
            "MainEntity")
        if failures > 0 { exit(1) }
        print("round-trip OK")

        // Key-path queries on generated entities, run by the file backend through the generated
        // queryableFields; a field the design did not make queryable is a typed error.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelgen-query-\\(UUID().uuidString)")
        let notes = try RecordStore<QueryableModels.Note>(file: "notes.json", in: try FileStore(directory: folder))
        for (id, stars) in [(1, 3), (2, 5), (3, 1)] as [(Int64, Int16)] {
            try await notes.insert(
                QueryableModels.Note(
                    id: id, text: "note \\(id)", stars: stars, created: date.addingTimeInterval(Double(id)), done: id == 2,
                    price: 1, default: "d"))
        }
        let top = try await notes.fetch(where: \\.stars >= 3, sortedBy: \\.stars, ascending: false, limit: 10).map(\\.id)
        let done = try await notes.count(where: \\.done == true && \\.created > date)
        var refused = false
        do { _ = try await notes.count(where: \\.cache == "x") } catch is RecordStoreError { refused = true }
        try? FileManager.default.removeItem(at: folder)
        guard top == [2, 1], done == 1, refused else {
            print("query mismatch: top \\(top), done \\(done), refused \\(refused)")
            exit(1)
        }
        print("query OK")

        """
}
