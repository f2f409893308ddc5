import Foundation
import Testing

@testable import BoilerCLI

/// The three-way merge on cases whose answer is known, by both engines: the built-in diff3 and
/// `git merge-file` (skipped where git is not installed).
@Suite("Three-way merge: known cases")
struct MergeKnownCasesTests {
    static let labels = MergeLabels(ours: "yours", base: "before", theirs: "boiler")

    /// The engines to check: the built-in one always, git's where it runs.
    static let engines: [MergeEngine] = GitMergeFile.isAvailable ? [.builtIn, .git] : [.builtIn]

    /// Merges with `engine`; git is waited for on a thread of its own.
    func merge(_ engine: MergeEngine, _ base: String, _ ours: String, _ theirs: String) async throws -> MergeResult {
        try await OffPool.run { () throws(BoilerError) -> MergeResult in
            try engine.merge(base: base, ours: ours, theirs: theirs, labels: Self.labels)
        }
    }

    @Test("edits far apart on the two sides both land", arguments: engines)
    func disjointEdits(engine: MergeEngine) async throws {
        let base = "a\nb\nc\nd\ne\n"
        let result = try await merge(engine, base, "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n")
        #expect(result == MergeResult(text: "A\nb\nc\nd\nE\n", conflicts: 0))
    }

    @Test("the same edit on both sides is taken once, without a conflict", arguments: engines)
    func sameEdit(engine: MergeEngine) async throws {
        let result = try await merge(engine, "a\nb\nc\n", "a\nB\nc\nd\n", "a\nB\nc\nd\n")
        #expect(result == MergeResult(text: "a\nB\nc\nd\n", conflicts: 0))
    }

    @Test("the same line changed two ways is a conflict with git's markers", arguments: engines)
    func conflict(engine: MergeEngine) async throws {
        let result = try await merge(engine, "a\nb\nc\n", "a\nmine\nc\n", "a\ntheirs\nc\n")
        #expect(result.conflicts == 1)
        #expect(result.text == "a\n<<<<<<< yours\nmine\n=======\ntheirs\n>>>>>>> boiler\nc\n")
    }

    @Test("a line added at the end by one side and a change at the start by the other", arguments: engines)
    func insertions(engine: MergeEngine) async throws {
        let result = try await merge(engine, "a\nb\nc\n", "x\na\nb\nc\n", "a\nb\nc\nz\n")
        #expect(result == MergeResult(text: "x\na\nb\nc\nz\n", conflicts: 0))
    }

    @Test("a file without a final line break merges exactly", arguments: engines)
    func noFinalNewline(engine: MergeEngine) async throws {
        let result = try await merge(engine, "a\nb\nc", "A\nb\nc", "a\nb\nC")
        #expect(result == MergeResult(text: "A\nb\nC", conflicts: 0))
    }

    @Test("two conflicts four lines apart are counted and both marked", arguments: engines)
    func twoConflicts(engine: MergeEngine) async throws {
        let base = "1\n2\n3\n4\n5\n6\n7\n"
        let result = try await merge(engine, base, "1\nX\n3\n4\n5\n6\nY\n", "1\nx\n3\n4\n5\n6\ny\n")
        #expect(result.conflicts == 2)
        #expect(result.text.components(separatedBy: "<<<<<<< yours\n").count == 3)
        #expect(result.text.components(separatedBy: ">>>>>>> boiler\n").count == 3)
    }

    @Test(
        "conflicts three lines apart, or apart only by lines without a letter or digit, become one", arguments: engines)
    func nearbyConflictsJoin(engine: MergeEngine) async throws {
        let close = try await merge(engine, "1\n2\n3\n4\n5\n6\n", "1\nX\n3\n4\n5\nY\n", "1\nx\n3\n4\n5\ny\n")
        #expect(
            close
                == MergeResult(
                    text: "1\n<<<<<<< yours\nX\n3\n4\n5\nY\n=======\nx\n3\n4\n5\ny\n>>>>>>> boiler\n", conflicts: 1))
        let braces = try await merge(
            engine, "1\n2\n}\n\n}\n)\n5\n", "1\nX\n}\n\n}\n)\nY\n", "1\nx\n}\n\n}\n)\ny\n")
        #expect(braces.conflicts == 1)
    }

    @Test("text that looks like a conflict marker is merged as text", arguments: engines)
    func markerLookalike(engine: MergeEngine) async throws {
        let base = "a\n=======\nb\n"
        let result = try await merge(
            engine, base, "<<<<<<< not a marker\na\n=======\nb\n", "a\n=======\nb\n>>>>>>> nor this\n")
        #expect(result == MergeResult(text: "<<<<<<< not a marker\na\n=======\nb\n>>>>>>> nor this\n", conflicts: 0))
    }

    @Test("a user's file where boiler now has one (an empty base) is a conflict unless they are equal")
    func addAdd() async throws {
        for engine in Self.engines {
            #expect(try await merge(engine, "", "mine\n", "theirs\n").conflicts == 1)
            #expect(try await merge(engine, "", "same\n", "same\n") == MergeResult(text: "same\n", conflicts: 0))
        }
    }

    @Test("the built-in merge keeps lines both sides share out of the conflict, as git does")
    func sharedLinesOutsideMarkers() async throws {
        let result = LineMerge.merge(
            base: "a\nold\nz\n", ours: "a\nshared\nmine\nz\n", theirs: "a\nshared\ntheirs\nz\n", labels: Self.labels)
        #expect(result.text == "a\nshared\n<<<<<<< yours\nmine\n=======\ntheirs\n>>>>>>> boiler\nz\n")
        if GitMergeFile.isAvailable {
            let git = try await merge(.git, "a\nold\nz\n", "a\nshared\nmine\nz\n", "a\nshared\ntheirs\nz\n")
            #expect(git == result)
        }
    }
}

extension MergeEngine: CustomTestStringConvertible {
    /// The engine's name, for test results.
    public var testDescription: String { name }
}
