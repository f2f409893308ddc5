import Foundation

/// Puts the versions of an `.xcdatamodeld` bundle in order, oldest first, or says why it cannot.
///
/// Xcode keeps no order: real bundles are named `Model`, `Model 2`, `Model2`, `Model_1` or
/// `Version 1`, their version identifiers are often empty or not numbers, and `.xccurrentversion`
/// may name an older version than the newest. So the order comes from, in turn:
///
/// 1. a `<Name>.versions` file beside the bundle: version names, oldest first, one a line
///    (`#` starts a comment) — what a person states wins; one put anywhere else (inside the
///    bundle, in the working folder) is refused by name, since it is not read. Its first line
///    may instead be `oldest: <version>`, the oldest version whose data is still stored
///    (``DesignHistory/oldestStoredVersion``), alone or before the list;
/// 2. the version identifiers, when every version has one and each is a dotted number (`2`, `1.1`);
/// 3. the names, when they share one stem and differ by a number with one separator style
///    (`Model`, `Model 2`, `Model 3`: a name without a number is version 1).
///
/// When the identifiers and the names both give an order they must agree. Whatever the source,
/// the current version must come last. Anything else is
/// ``ModelGenError/ambiguousVersionOrder(file:reason:)``: ModelGen never guesses an order,
/// because a wrong one would migrate data backwards.
enum VersionOrder {
    /// The file beside `bundle` that states its order: `Model.versions` for `Model.xcdatamodeld`.
    static func statementFile(of bundle: URL) -> URL {
        bundle.deletingLastPathComponent().appendingPathComponent(
            bundle.deletingPathExtension().lastPathComponent + ".versions")
    }

    /// The versions of a bundle oldest first, and the oldest whose data is still stored when
    /// the `.versions` file names it.
    struct Ordered: Equatable {
        var versions: [String]
        var oldestStored: String?
    }

    /// What a `.versions` file states: the order when it lists the versions, the oldest stored
    /// version when its first line names one.
    private struct Statement {
        var order: [String]?
        var oldestStored: String?
    }

    /// `names` oldest first.
    /// - Parameters:
    ///   - names: The version folders without `.xcdatamodel`.
    ///   - identifiers: Each version's `userDefinedModelVersionIdentifier`, if set.
    ///   - current: The version `.xccurrentversion` names, if any.
    ///   - bundle: The bundle, for errors and for its `.versions` file.
    ///   - workingFolder: The folder a misplaced `.versions` file may sit in: the process's.
    static func order(
        of names: [String], identifiers: [String: String?], current: String?, bundle: URL,
        workingFolder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) throws -> Ordered {
        let file = bundle.path
        if let current, !names.contains(current) {
            throw ModelGenError.notAModel(file: file, reason: "the current version '\(current)' is not in the bundle")
        }
        let statement = statementFile(of: bundle)
        let stated =
            FileManager.default.fileExists(atPath: statement.path) ? try self.stated(in: statement, names: names) : nil
        let order: [String]
        if stated == nil, let misplaced = misplacedStatement(of: bundle, workingFolder: workingFolder) {
            // It states an order the names may contradict: reading the names instead could migrate backwards.
            throw ModelGenError.ambiguousVersionOrder(
                file: file,
                reason: "'\(misplaced.path)' is not read: a .versions file is read only beside the bundle; "
                    + "move it to '\(statement.path)'")
        }
        if let stated = stated?.order {
            order = stated
        } else if names.count == 1 {
            order = names
        } else {
            let byIdentifier = identifierOrder(names, identifiers)
            let byName = nameOrder(names)
            switch (byIdentifier, byName) {
            case (.some(let a), .success(let b)) where a != b:
                throw ambiguous(
                    file, bundle,
                    "the version identifiers order them \(list(a)) but the names order them \(list(b))")
            case (.some(let a), _):
                order = a
            case (nil, .success(let b)):
                order = b
            case (nil, .failure(let problem)):
                throw ambiguous(file, bundle, problem.reason)
            }
        }
        if let current, let last = order.last, last != current {
            throw ambiguous(
                file, bundle,
                "'.xccurrentversion' names '\(current)', but '\(last)' comes after it; make the newest version "
                    + "current in Xcode, or list only the versions up to the current one")
        }
        return Ordered(versions: order, oldestStored: stated?.oldestStored)
    }

    private static func ambiguous(_ file: String, _ bundle: URL, _ reason: String) -> ModelGenError {
        .ambiguousVersionOrder(
            file: file, reason: reason + "; state the order in '\(statementFile(of: bundle).path)', beside the bundle")
    }

    /// A `.versions` file where none is read: inside the bundle, or the bundle's in the working
    /// folder when that is not the folder beside the bundle.
    private static func misplacedStatement(of bundle: URL, workingFolder: URL) -> URL? {
        let inside = (try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? []
        if let name = inside.sorted().first(where: { $0.hasSuffix(".versions") }) {
            return bundle.appendingPathComponent(name)
        }
        let statement = statementFile(of: bundle)
        let working = workingFolder.appendingPathComponent(statement.lastPathComponent)
        guard working.resolvingSymlinksInPath() != statement.resolvingSymlinksInPath(),
            FileManager.default.fileExists(atPath: working.path)
        else { return nil }
        return working
    }

    private static func list(_ names: [String]) -> String {
        names.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// What a `.versions` file states: every version of the bundle exactly once, after an
    /// optional first line `oldest: <version>`; or that line alone, leaving the order to the
    /// identifiers or names.
    private static func stated(in statement: URL, names: [String]) throws -> Statement {
        let text: String
        do {
            text = try String(contentsOf: statement, encoding: .utf8)
        } catch {
            throw ModelGenError.unreadable(file: statement.path, reason: (error as NSError).localizedDescription)
        }
        var order: [String] = []
        var oldest: String?
        var first = true
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = String(raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            line = line.trimmingCharacters(in: .whitespacesAndNewlines)
            let isOldest = line.hasPrefix(oldestPrefix)
            if isOldest { line = line.dropFirst(oldestPrefix.count).trimmingCharacters(in: .whitespaces) }
            if line.hasSuffix(".xcdatamodel") { line = String(line.dropLast(".xcdatamodel".count)) }
            guard !line.isEmpty || isOldest else { continue }
            defer { first = false }
            if isOldest {
                guard first else {
                    throw ModelGenError.ambiguousVersionOrder(
                        file: statement.path,
                        reason: "line \(offset + 1) names the oldest stored version, which only the first line may name"
                    )
                }
                guard names.contains(line) else {
                    throw ModelGenError.ambiguousVersionOrder(
                        file: statement.path,
                        reason:
                            "line \(offset + 1) names '\(SwiftNames.commentText(line))' as the oldest stored version, "
                            + "which is not a version in the bundle")
                }
                oldest = line
                continue
            }
            guard names.contains(line) else {
                throw ModelGenError.ambiguousVersionOrder(
                    file: statement.path,
                    reason:
                        "line \(offset + 1) names '\(SwiftNames.commentText(line))', which is not a version in the bundle"
                )
            }
            guard !order.contains(line) else {
                throw ModelGenError.ambiguousVersionOrder(
                    file: statement.path, reason: "line \(offset + 1) names '\(line)' a second time")
            }
            order.append(line)
        }
        if order.isEmpty, oldest != nil { return Statement(order: nil, oldestStored: oldest) }
        let missing = names.filter { !order.contains($0) }.sorted()
        guard missing.isEmpty else {
            throw ModelGenError.ambiguousVersionOrder(
                file: statement.path, reason: "it does not list \(list(missing)); list every version, oldest first")
        }
        return Statement(order: order, oldestStored: oldest)
    }

    /// How the first line of a `.versions` file names the oldest version whose data is stored.
    static let oldestPrefix = "oldest:"

    /// The order of the version identifiers, when every version has a distinct dotted number.
    private static func identifierOrder(_ names: [String], _ identifiers: [String: String?]) -> [String]? {
        var keyed: [(numbers: [Int], name: String)] = []
        for name in names {
            guard let identifier = identifiers[name] ?? nil else { return nil }
            let parts = identifier.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
            keyed.append((parts.compactMap { $0 }, name))
        }
        let sorted = keyed.sorted { $0.numbers.lexicographicallyPrecedes($1.numbers) }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.numbers == b.numbers { return nil }
        return sorted.map(\.name)
    }

    struct Problem: Error {
        var reason: String
    }

    /// The order the names give: one stem, each followed by a distinct number with one separator
    /// style; a name that is the stem alone is version 1.
    static func nameOrder(_ names: [String]) -> Result<[String], Problem> {
        var stems: Set<String> = []
        var separators: Set<String> = []
        var numbered: [(number: Int, name: String)] = []
        var bare: [String] = []
        for name in names {
            let digits = name.reversed().prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count < name.count, let number = Int(String(digits.reversed())) else {
                bare.append(name)
                stems.insert(name)
                continue
            }
            var stem = String(name.dropLast(digits.count))
            var separator = ""
            if let last = stem.last, [" ", "_", "-", "."].contains(last) {
                separator = String(last)
                stem.removeLast()
            }
            stems.insert(stem)
            separators.insert(separator)
            numbered.append((number, name))
        }
        guard stems.count == 1 else {
            return .failure(Problem(reason: "the names \(list(names.sorted())) do not share one stem"))
        }
        guard separators.count <= 1 else {
            return .failure(
                Problem(reason: "the names \(list(names.sorted())) number their versions in different styles"))
        }
        if let first = bare.first {
            // The lowest number, so the message names the same pair whatever order the folder lists.
            if let low = numbered.filter({ $0.number < 2 }).min(by: { ($0.number, $0.name) < ($1.number, $1.name) }) {
                return .failure(
                    Problem(reason: "'\(first)' and '\(low.name)' could each be the first version"))
            }
            numbered.append((1, first))
        }
        let sorted = numbered.sorted { $0.number < $1.number }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.number == b.number {
            return .failure(Problem(reason: "'\(a.name)' and '\(b.name)' are both version \(a.number)"))
        }
        return .success(sorted.map(\.name))
    }
}
