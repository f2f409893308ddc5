import Foundation
import Testing

@testable import ModelGen

/// A bundle's `.versions` file is read from one place, beside the bundle: errors give that full
/// path, and a `.versions` file put where it is not read (inside the bundle, in the working
/// folder) is named rather than silently ignored.
@Suite("Where a .versions file is read")
struct VersionsFilePlacementTests {
    /// `Model.xcdatamodeld` in `folder` with versions `Alpha` and `Beta`, whose names leave the order open.
    static func openBundle(in folder: URL) throws -> URL {
        try DesignHistoryTests.bundle(["Alpha", "Beta"], in: folder)
    }

    /// The reason of an `ambiguousVersionOrder` error, or nil (recording an issue) for any other.
    static func reason(of error: ModelGenError) -> String? {
        guard case .ambiguousVersionOrder(_, let reason) = error else {
            Issue.record("unexpected \(error)")
            return nil
        }
        return reason
    }

    @Test("an order that is not certain names the full path of the file that would state it")
    func fullPath() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = try Self.openBundle(in: folder)
        let error = try #require(throws: ModelGenError.self) { try DesignHistory.read(from: bundle) }
        let expected = folder.appendingPathComponent("Model.versions").path
        #expect(Self.reason(of: error)?.contains("'\(expected)'") == true, "\(error.message)")
        #expect(error.message.contains("beside the bundle"), "\(error.message)")
    }

    @Test("a .versions file inside the bundle is named as not read, with where to move it")
    func insideBundle() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = try Self.openBundle(in: folder)
        let misplaced = try Fixtures.write("Beta\nAlpha\n", to: "Model.versions", in: bundle)
        let error = try #require(throws: ModelGenError.self) { try DesignHistory.read(from: bundle) }
        let reason = try #require(Self.reason(of: error))
        #expect(reason.contains("'\(misplaced.path)' is not read"), "\(reason)")
        #expect(reason.contains("'\(folder.appendingPathComponent("Model.versions").path)'"), "\(reason)")
    }

    @Test("a .versions file in the working folder is named as not read")
    func workingFolder() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = try Self.openBundle(in: folder.appendingPathComponent("Design"))
        let working = folder.appendingPathComponent("Work")
        let misplaced = try Fixtures.write("Beta\nAlpha\n", to: "Model.versions", in: working)
        let error = try #require(throws: ModelGenError.self) {
            try VersionOrder.order(
                of: ["Alpha", "Beta"], identifiers: [:], current: nil, bundle: bundle, workingFolder: working)
        }
        let reason = try #require(Self.reason(of: error))
        #expect(reason.contains("'\(misplaced.path)' is not read"), "\(reason)")
    }

    @Test("a misplaced .versions file is named even when the names make the order certain")
    func misplacedWhileCertain() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { Fixtures.remove(folder) }
        let bundle = try DesignHistoryTests.bundle(["Model", "Model 2"], in: folder)
        let misplaced = try Fixtures.write("Model 2\nModel\n", to: "Model.versions", in: bundle)
        let error = try #require(throws: ModelGenError.self) { try DesignHistory.read(from: bundle) }
        #expect(Self.reason(of: error)?.contains("'\(misplaced.path)' is not read") == true)
        // Moved beside the bundle, it is read.
        try FileManager.default.moveItem(at: misplaced, to: folder.appendingPathComponent("Model.versions"))
        #expect(try DesignHistory.read(from: bundle).versions.map(\.name) == ["Model 2", "Model"])
    }
}
