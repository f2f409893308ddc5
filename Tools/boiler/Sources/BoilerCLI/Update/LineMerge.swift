import Foundation

/// The outcome of a three-way merge of text.
public struct MergeResult: Sendable, Equatable {
    /// The merged text; where the two sides disagree it holds git-style conflict markers.
    public var text: String
    /// How many conflicted regions the text holds; 0 for a clean merge.
    public var conflicts: Int

    /// Whether the merge is clean (no conflict markers were written).
    public var isClean: Bool { conflicts == 0 }

    /// A result of `text` with `conflicts` conflicted regions.
    public init(text: String, conflicts: Int) {
        self.text = text
        self.conflicts = conflicts
    }
}

/// The names written after the conflict markers: `<<<<<<< ours` and `>>>>>>> theirs`.
public struct MergeLabels: Sendable, Equatable {
    /// The label of the file as it is now (the user's side).
    public var ours: String
    /// The label of the common ancestor (what boiler wrote before).
    public var base: String
    /// The label of the new rendering (the templates' side).
    public var theirs: String

    /// Labels for a merge of `path`: the user's copy, what boiler wrote, and the new rendering.
    public init(ours: String, base: String, theirs: String) {
        self.ours = ours
        self.base = base
        self.theirs = theirs
    }
}

/// A line-based three-way merge (diff3) on the standard library's `CollectionDifference`.
///
/// This is the fallback where git is not installed (``GitMergeFile`` is used where it is). Both
/// sides are diffed against the base; base lines that neither side changed are anchors, and
/// between two anchors each side's lines are a chunk: a chunk only one side changed takes that
/// side, a chunk both changed the same way takes it once, and any other chunk is a conflict,
/// written with git's markers (lines both sides share at its start and end are taken out of it,
/// as git's merge does). Lines keep their line breaks, so a file without a final newline merges
/// as exactly as one with it.
public enum LineMerge {
    /// Merges `ours` and `theirs`, two descendants of `base`.
    public static func merge(base: String, ours: String, theirs: String, labels: MergeLabels) -> MergeResult {
        // Bytes, not String's `==`, which equates canonically equivalent text.
        if ours.utf8.elementsEqual(theirs.utf8) { return MergeResult(text: ours, conflicts: 0) }
        if ours.utf8.elementsEqual(base.utf8) { return MergeResult(text: theirs, conflicts: 0) }
        if theirs.utf8.elementsEqual(base.utf8) { return MergeResult(text: ours, conflicts: 0) }
        let baseLines = lines(base)
        let ourLines = lines(ours)
        let theirLines = lines(theirs)
        let ourMatch = matches(of: baseLines, in: ourLines)
        let theirMatch = matches(of: baseLines, in: theirLines)

        var segments: [Segment] = []
        var (b, o, t) = (0, 0, 0)
        func chunk(toBase endB: Int, ours endO: Int, theirs endT: Int) {
            let baseChunk = baseLines[b..<endB]
            let ourChunk = ourLines[o..<endO]
            let theirChunk = theirLines[t..<endT]
            if ourChunk.elementsEqual(baseChunk) {
                segments.append(.clean(Array(theirChunk)))
            } else if theirChunk.elementsEqual(baseChunk) || ourChunk.elementsEqual(theirChunk) {
                segments.append(.clean(Array(ourChunk)))
            } else {
                segments += conflict(Array(ourChunk), Array(theirChunk))
            }
        }
        for index in baseLines.indices {
            guard let inOurs = ourMatch[index], let inTheirs = theirMatch[index] else { continue }
            chunk(toBase: index, ours: inOurs, theirs: inTheirs)
            segments.append(.clean([baseLines[index]]))
            (b, o, t) = (index + 1, inOurs + 1, inTheirs + 1)
        }
        chunk(toBase: baseLines.count, ours: ourLines.count, theirs: theirLines.count)
        return render(joiningNearbyConflicts(segments), labels: labels)
    }

    /// A stretch of the merged file: lines both sides agree on, or a conflict.
    enum Segment {
        case clean([Substring])
        case conflict(ours: [Substring], theirs: [Substring])
    }

    /// A conflicted chunk: the lines both sides start and end with stay outside the markers.
    static func conflict(_ ours: [Substring], _ theirs: [Substring]) -> [Segment] {
        var prefix = 0
        while prefix < ours.count, prefix < theirs.count, ours[prefix] == theirs[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < ours.count - prefix, suffix < theirs.count - prefix,
            ours[ours.count - 1 - suffix] == theirs[theirs.count - 1 - suffix]
        {
            suffix += 1
        }
        return [
            .clean(Array(ours[..<prefix])),
            .conflict(
                ours: Array(ours[prefix..<(ours.count - suffix)]),
                theirs: Array(theirs[prefix..<(theirs.count - suffix)])),
            .clean(Array(ours[(ours.count - suffix)...])),
        ]
    }

    /// Joins two conflicts that only a few lines keep apart — three or fewer, or any number
    /// without a letter or digit (blank lines, braces) — into one, as git's merge does: one
    /// conflict to read is clearer than two around a closing brace.
    static func joiningNearbyConflicts(_ segments: [Segment]) -> [Segment] {
        // Adjacent clean segments first become one, so "between two conflicts" is one segment.
        var merged: [Segment] = []
        for segment in segments {
            if case .clean(let lines) = segment, case .clean(let previous)? = merged.last {
                merged[merged.count - 1] = .clean(previous + lines)
            } else if case .clean(let lines) = segment, lines.isEmpty {
                continue
            } else {
                merged.append(segment)
            }
        }
        var result: [Segment] = []
        for segment in merged {
            if case .conflict(let ours, let theirs) = segment, result.count >= 2,
                case .clean(let gap) = result[result.count - 1],
                case .conflict(let previousOurs, let previousTheirs) = result[result.count - 2],
                gap.count <= 3 || !gap.contains(where: { $0.contains { $0.isLetter || $0.isNumber } })
            {
                result.removeLast(2)
                result.append(.conflict(ours: previousOurs + gap + ours, theirs: previousTheirs + gap + theirs))
            } else {
                result.append(segment)
            }
        }
        return result
    }

    /// The merged text, with git's markers around each conflict.
    static func render(_ segments: [Segment], labels: MergeLabels) -> MergeResult {
        var output: [Substring] = []
        var conflicts = 0
        for segment in segments {
            switch segment {
            case .clean(let lines): output += lines
            case .conflict(let ours, let theirs):
                conflicts += 1
                output.append(Substring("<<<<<<< \(labels.ours)\n"))
                output += terminated(ours[...])
                output.append("=======\n")
                output += terminated(theirs[...])
                output.append(Substring(">>>>>>> \(labels.theirs)\n"))
            }
        }
        return MergeResult(text: output.joined(), conflicts: conflicts)
    }

    /// `lines`, the last one given a line break if it has none, so a marker starts its own line.
    static func terminated(_ lines: ArraySlice<Substring>) -> [Substring] {
        var result = Array(lines)
        if let last = result.last, !last.hasSuffix("\n") { result[result.count - 1] = Substring(String(last) + "\n") }
        return result
    }

    /// `text` cut into lines, each with its line break (the last one may have none).
    static func lines(_ text: String) -> [Substring] {
        var result: [Substring] = []
        var start = text.startIndex
        var index = start
        while index < text.endIndex {
            let next = text.index(after: index)
            // "\r\n" is one Character, so Windows line breaks end lines too.
            if text[index].isNewline {
                result.append(text[start..<next])
                start = next
            }
            index = next
        }
        if start < text.endIndex { result.append(text[start...]) }
        return result
    }

    /// For each line of `base`, where it is in `other` if `other` kept it, from their difference.
    static func matches(of base: [Substring], in other: [Substring]) -> [Int?] {
        let difference = other.difference(from: base)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var result = [Int?](repeating: nil, count: base.count)
        var position = 0
        for index in base.indices where !removed.contains(index) {
            while inserted.contains(position) { position += 1 }
            result[index] = position
            position += 1
        }
        return result
    }
}
