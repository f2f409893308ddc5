import Foundation
import Testing

@testable import ModelGen

/// Output for every design in Tests/Fixtures/models, every version read, compared byte for byte
/// with `Golden/<design>/<file>.golden` (the warnings with `warnings.txt`, and the migration plan
/// of a design with several versions with `plan.txt`).
///
/// To regenerate after an intended change to templates or resolution:
/// `MODELGEN_UPDATE_GOLDEN=1 swift test --package-path Packages/ModelGen --filter GoldenTests`,
/// then review the diff.
@Suite("Golden output")
struct GoldenTests {
    static var updating: Bool { ProcessInfo.processInfo.environment["MODELGEN_UPDATE_GOLDEN"] == "1" }

    @Test("every design renders exactly its golden files", arguments: Fixtures.all)
    func matchesGolden(_ fixture: Fixtures.Design) throws {
        let history = try DesignHistory.read(from: fixture.url)
        let (files, warnings, plan) = try ModelGenerator().renderFiles(history, designFile: fixture.file)
        let folder = Fixtures.golden.appendingPathComponent(fixture.file)
        var expected = files.map { ($0.name + ".golden", $0.contents) }
        expected.append(("warnings.txt", warnings.map { $0 + "\n" }.joined()))
        if !plan.isEmpty { expected.append(("plan.txt", plan.map { $0 + "\n" }.joined())) }
        if Self.updating {
            Fixtures.remove(folder)
            for (name, contents) in expected { try Fixtures.write(contents, to: name, in: folder) }
        }
        let onDisk = try Fixtures.snapshot(folder)
        #expect(Set(onDisk.keys) == Set(expected.map(\.0)), "golden files of \(fixture.file) differ in names")
        for (name, contents) in expected {
            let golden = onDisk[name].map { String(decoding: $0, as: UTF8.self) }
            #expect(golden == contents, "\(fixture.file)/\(name) differs from its golden file")
        }
    }

    @Test("rendering twice gives byte-identical output", arguments: Fixtures.all)
    func deterministic(_ fixture: Fixtures.Design) throws {
        let first = try ModelGenerator().render(try DesignHistory.read(from: fixture.url), designFile: fixture.file)
        let second = try ModelGenerator().render(try DesignHistory.read(from: fixture.url), designFile: fixture.file)
        #expect(first == second)
    }
}
