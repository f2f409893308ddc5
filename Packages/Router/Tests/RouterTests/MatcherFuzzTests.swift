import Testing

@testable import Router

/// Random paths, escapes and bytes included, thrown at a table: the matcher never crashes and
/// never hands a handler a parameter that traverses.
@Suite("Matcher fuzzing")
struct MatcherFuzzTests {
    /// A small deterministic generator (xorshift64*), so a failure can be replayed from its seed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }

    /// Pieces a random segment is made of: the dangerous escapes, dots, raw bytes, unicode.
    static let pieces = [
        "%2E", "%2e", ".", "..", "%2F", "%2f", "/", "%25", "%", "%00", "%C3%A9", "%FF", "a", "b", "x", "files",
        "notes", "5", "-", "~", "é", "🦊", "%20", "+", "?", "#", "=", "&", ";", "\\", "%5C", "\u{0}", ":", "*",
    ]

    static func randomPath(_ generator: inout Generator) -> String {
        var path = generator.next() % 20 == 0 ? "myapp://" : "/"
        for segment in 0..<Int(generator.next() % 7) {
            if segment > 0 { path += "/" }
            for _ in 0..<Int(1 + generator.next() % 4) {
                if generator.next() % 10 == 0 {
                    path += "%" + String(UInt8(truncatingIfNeeded: generator.next()), radix: 16, uppercase: true)
                } else {
                    path += pieces[Int(generator.next() % UInt64(pieces.count))]
                }
            }
        }
        return path
    }

    static func isDot(_ text: Substring) -> Bool { text == "." || text == ".." }

    @Test("20 000 random paths: no crash, no . or .. in a value, no %2F turned into a separator")
    func randomPaths() throws {
        let routes = RouteTable()
        for pattern in ["/files/**path", "/f/:a", "/f/:a/:b(string)", "/n/:id(int)", "/x/*/:y", "/:top/**rest"] {
            try routes.add(pattern) { _ in }
        }
        try routes.add("/open/:v", allowing: .all) { _ in }
        var generator = Generator(state: 0x9E37_79B9_7F4A_7C15)
        var matched = 0
        for _ in 0..<20_000 {
            let path = Self.randomPath(&generator)
            let match = routes.match(path)
            do {
                let resolved = try routes.resolve(path)
                #expect(resolved.route == match?.route, "\(path)")
            } catch {
                #expect(match == nil, "\(path): resolve threw \(error) but match found one")
            }
            guard let match else { continue }
            matched += 1
            for (name, value) in match.params where match.route.allowance != .all {
                let isCatchAll = match.route.pattern.hasSuffix("**\(name)")
                if isCatchAll {
                    // Joined only from segments that hold no slash, so splitting gives them back.
                    #expect(
                        (value.isEmpty
                            ? [] : value.split(separator: "/", omittingEmptySubsequences: false).map(String.init))
                            == match.catchAll, "\(path)")
                    #expect(!value.split(separator: "/").contains(where: Self.isDot), "\(path) → \(name)=\(value)")
                } else {
                    #expect(!value.contains("/") && !Self.isDot(value[...]), "\(path) → \(name)=\(value)")
                }
            }
        }
        #expect(matched > 2_000, "the generator reaches the routes often enough to test them")
    }
}
