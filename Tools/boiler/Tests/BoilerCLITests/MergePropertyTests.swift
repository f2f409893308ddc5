import Foundation
import PropertyBased
import Testing

@testable import BoilerCLI

/// Properties of the three-way merge over random files and edits: edits to line ranges of the
/// two sides that do not touch (at least one unchanged line between them) always merge cleanly
/// and keep both; the same edits on both sides are never a conflict; and the built-in diff3 and
/// `git merge-file` give the same text.
///
/// Base lines are distinct and the lines an edit writes are new, so the edit a side made is the
/// only difference a diff can find: the property is about the merge, not about a diff's choice
/// among equally short answers.
@Suite("Three-way merge: properties")
struct MergePropertyTests {
    static let labels = MergeLabels(ours: "yours", base: "before", theirs: "boiler")
    static let gitRuns = GitMergeFile.isAvailable

    /// `git merge-file`, waited for on a thread of its own (not one of Swift concurrency's).
    static func git(_ base: String, _ ours: String, _ theirs: String) async throws -> MergeResult {
        try await OffPool.run { () throws(BoilerError) -> MergeResult in
            try GitMergeFile().merge(base: base, ours: ours, theirs: theirs, labels: labels)
        }
    }

    /// One side's edit: base lines `lower..<upper` replaced by `count` new lines.
    struct Edit {
        var lower: Int
        var upper: Int
        var count: Int
        var side: String

        func apply(to lines: [String]) -> [String] {
            var result = lines
            result.replaceSubrange(lower..<upper, with: (0..<count).map { "\(side) line \($0) of \(lower)\n" })
            return result
        }
    }

    /// Two edits that do not touch, from a line count and six numbers in 0..<1000: the first
    /// ends at least one unchanged line before the second starts. Nil when the file is too short.
    static func edits(lines: Int, _ numbers: [Int]) -> (first: Edit, second: Edit)? {
        // first.lower <= first.upper < second.lower <= second.upper <= lines, one line between.
        let firstLower = numbers[0] % lines
        let firstUpper = firstLower + numbers[1] % 3
        let secondLower = firstUpper + 1 + numbers[2] % 3
        let secondUpper = secondLower + numbers[3] % 3
        guard secondUpper <= lines else { return nil }
        var first = Edit(lower: firstLower, upper: firstUpper, count: numbers[4] % 3, side: "first")
        var second = Edit(lower: secondLower, upper: secondUpper, count: numbers[5] % 3, side: "second")
        // An edit that removes nothing and adds nothing is no edit: give it a line.
        if first.lower == first.upper && first.count == 0 { first.count = 1 }
        if second.lower == second.upper && second.count == 0 { second.count = 1 }
        return (first, second)
    }

    static func base(_ count: Int) -> [String] { (0..<count).map { "base line \($0)\n" } }

    @Test("edits on line ranges that do not touch merge cleanly and keep both edits, in both engines")
    func disjointEditsMerge() async {
        await propertyCheck(count: 250, input: Gen.int(in: 2...40), Gen.int(in: 0...999).array(of: 7)) {
            lines, numbers in
            guard let (first, second) = Self.edits(lines: lines, numbers) else { return }
            let base = Self.base(lines)
            // Either side may hold the earlier edit.
            let firstIsOurs = numbers[6] % 2 == 0
            let ours = (firstIsOurs ? first : second).apply(to: base).joined()
            let theirs = (firstIsOurs ? second : first).apply(to: base).joined()
            // Both edits applied, the later one first so the earlier one's offsets still hold.
            let expected = first.apply(to: second.apply(to: base)).joined()
            let builtIn = LineMerge.merge(base: base.joined(), ours: ours, theirs: theirs, labels: Self.labels)
            #expect(builtIn == MergeResult(text: expected, conflicts: 0), "\(lines) lines, \(first), \(second)")
            if Self.gitRuns {
                let git = try await Self.git(base.joined(), ours, theirs)
                #expect(git == builtIn, "git and the built-in merge differ: \(lines) lines, \(first), \(second)")
            }
        }
    }

    @Test("the same edits on both sides are never a conflict, in both engines")
    func sameEditsAgree() async {
        await propertyCheck(count: 150, input: Gen.int(in: 2...40), Gen.int(in: 0...999).array(of: 7)) {
            lines, numbers in
            guard let (first, second) = Self.edits(lines: lines, numbers) else { return }
            let base = Self.base(lines)
            let edited = first.apply(to: second.apply(to: base)).joined()
            let builtIn = LineMerge.merge(base: base.joined(), ours: edited, theirs: edited, labels: Self.labels)
            #expect(builtIn == MergeResult(text: edited, conflicts: 0))
            if Self.gitRuns {
                let git = try await Self.git(base.joined(), edited, edited)
                #expect(git == builtIn)
            }
        }
    }

    @Test("edits to the same line range, made differently, always conflict in both engines, and keep both sides")
    func overlappingEditsConflict() async {
        await propertyCheck(count: 150, input: Gen.int(in: 1...30), Gen.int(in: 0...999).array(of: 3)) {
            lines, numbers in
            let base = Self.base(lines)
            let lower = numbers[0] % lines
            let upper = min(lines, lower + 1 + numbers[1] % 3)
            let ours = Edit(lower: lower, upper: upper, count: 1 + numbers[2] % 2, side: "ours").apply(to: base)
            let theirs = Edit(lower: lower, upper: upper, count: 1, side: "theirs").apply(to: base)
            let builtIn = LineMerge.merge(
                base: base.joined(), ours: ours.joined(), theirs: theirs.joined(), labels: Self.labels)
            #expect(builtIn.conflicts == 1)
            // Nothing is lost: every line of either side is in the merged text.
            for line in Set(ours + theirs) { #expect(builtIn.text.contains(line)) }
            if Self.gitRuns {
                let git = try await Self.git(base.joined(), ours.joined(), theirs.joined())
                #expect(git == builtIn)
            }
        }
    }
}
