/// A route pattern, parsed and checked: `/notes/:id(int)`, `/files/**path`.
///
/// See the "Pattern syntax and precedence" article for the grammar. Parsing rejects every
/// pattern that could never match or that would be ambiguous, with the offending position.
struct RoutePattern: Sendable, Hashable {
    /// The pattern as written.
    let text: String
    /// Its segments; empty for `/`.
    let segments: [PatternSegment]

    /// The segments with names dropped, for conflict detection.
    var shape: [PatternSegment] { segments.map(\.shape) }

    /// The names of the captured parameters, in order, including a named catch-all.
    var parameterNames: [String] {
        segments.compactMap {
            switch $0 {
            case .parameter(let name, _): name
            case .catchAll(let name): name
            default: nil
            }
        }
    }

    /// Parses a pattern.
    /// - Parameter caseInsensitive: fold literals to lower case, for tables that ignore case.
    /// - Throws: ``RouteError/malformedPattern(pattern:position:problem:)``.
    init(_ text: String, caseInsensitive: Bool = false) throws(RouteError) {
        self.text = text
        let characters = Array(text)
        func fail(_ offset: Int, _ problem: PatternProblem) -> RouteError {
            .malformedPattern(pattern: text, position: offset, problem: problem)
        }
        guard characters.first == "/" else { throw fail(0, .notAbsolute) }
        var segments: [PatternSegment] = []
        var names: Set<String> = []
        // A single trailing slash is ignored, as it is in paths; "//" is an empty segment.
        var end = characters.count
        if end > 1 && characters[end - 1] == "/" {
            end -= 1
            if end == 1 { throw fail(1, .emptySegment) }
        }
        var start = 1
        while start < end || (start == end && start > 1) {
            var stop = start
            while stop < end && characters[stop] != "/" { stop += 1 }
            if !segments.isEmpty, case .catchAll = segments[segments.count - 1] { throw fail(start, .catchAllNotLast) }
            let segment = try Self.parseSegment(
                characters[start..<stop], at: start, fail: fail, caseInsensitive: caseInsensitive)
            for name in Self.names(in: segment) where !names.insert(name).inserted {
                throw fail(start, .duplicateName(name))
            }
            segments.append(segment)
            if stop == end { break }
            start = stop + 1
        }
        self.segments = segments
    }

    private static func names(in segment: PatternSegment) -> [String] {
        switch segment {
        case .parameter(let name, _): [name]
        case .catchAll(let name?): [name]
        default: []
        }
    }

    private static func parseSegment(
        _ characters: ArraySlice<Character>, at offset: Int, fail: (Int, PatternProblem) -> RouteError,
        caseInsensitive: Bool
    ) throws(RouteError) -> PatternSegment {
        guard let first = characters.first else { throw fail(offset, .emptySegment) }
        if first == ":" {
            var index = characters.startIndex + 1
            var name = ""
            while index < characters.endIndex, characters[index] != "(" {
                guard isNameCharacter(characters[index]) else {
                    throw fail(index, .invalidCharacter(characters[index]))
                }
                name.append(characters[index])
                index += 1
            }
            guard !name.isEmpty else { throw fail(offset + 1, .emptyName) }
            guard index < characters.endIndex else { return .parameter(name: name, constraint: .string) }
            guard characters.last == ")" else {
                throw fail(characters.endIndex - 1, .invalidCharacter(characters.last ?? ")"))
            }
            let constraintName = String(characters[(index + 1)..<(characters.endIndex - 1)])
            guard let constraint = ParameterConstraint(rawValue: constraintName) else {
                throw fail(index + 1, .unknownConstraint(constraintName))
            }
            return .parameter(name: name, constraint: constraint)
        }
        if first == "*" {
            if characters.count == 1 { return .wildcard }
            let second = characters[characters.startIndex + 1]
            guard second == "*" else { throw fail(offset + 1, .invalidCharacter(second)) }
            let name = String(characters.dropFirst(2))
            if let bad = name.firstIndex(where: { !isNameCharacter($0) }) {
                throw fail(offset + 2 + name.distance(from: name.startIndex, to: bad), .invalidCharacter(name[bad]))
            }
            return .catchAll(name: name.isEmpty ? nil : name)
        }
        for index in characters.indices {
            switch characters[index] {
            case "?", "#", ":", "*", "\u{0}": throw fail(index, .invalidCharacter(characters[index]))
            default: continue
            }
        }
        let raw = String(characters)
        guard var literal = PercentCoding.decode(Substring(raw)) else { throw fail(offset, .invalidPercentEscape) }
        if literal.utf8.contains(0) { throw fail(offset, .invalidCharacter("\u{0}")) }
        if literal == "." || literal == ".." || raw == "." || raw == ".." { throw fail(offset, .dotSegment) }
        if caseInsensitive { literal = literal.lowercased() }
        return .literal(literal)
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character == "_" || character.isLetter || character.isNumber
    }
}
