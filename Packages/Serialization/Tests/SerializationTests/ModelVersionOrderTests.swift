import Testing

@testable import Serialization

/// `ModelVersion`'s `<` is a strict total order that agrees with `==`: for any two versions
/// exactly one of `a < b`, `b < a`, `a == b` holds, and `<` is transitive. Non-numeric strings
/// used to compare as text against numeric ones, which made cycles ("2" < "10" < "10a" < "2"),
/// and different spellings of one number ("1.0", "1.00") were neither equal nor ordered.
@Suite("ModelVersion ordering agrees with equality")
struct ModelVersionOrderTests {
    static let versions: [ModelVersion] = [
        0, 1, 2, 10, -1, "1", "01", "1.0", "1.00", "1.9", "1.10", "1.9x", "1.beta", "2", "10", "10a", "a", "b", "",
        "1..2", "1.0-beta", "2.0", "ä", "a\u{308}",
    ]

    @Test("exactly one of a < b, b < a, a == b holds for every pair")
    func trichotomy() {
        for a in Self.versions {
            for b in Self.versions {
                let holds = [a < b, b < a, a == b].filter { $0 }.count
                #expect(holds == 1, "\(a) vs \(b)")
            }
        }
    }

    @Test("< is transitive")
    func transitive() {
        for a in Self.versions {
            for b in Self.versions where a < b {
                for c in Self.versions where b < c { #expect(a < c, "\(a) < \(b) < \(c)") }
            }
        }
    }

    @Test("numeric components still order by value")
    func numeric() {
        #expect(ModelVersion("1.10") > ModelVersion("1.9"))
        #expect(ModelVersion(2) < ModelVersion("10"))
        #expect(ModelVersion("2") < ModelVersion("10a"))
        #expect(ModelVersion("1.9") < ModelVersion("1.beta"))
        #expect(ModelVersion("1") < ModelVersion("1.0"))
        #expect(ModelVersion(1) < ModelVersion("1"))
        #expect(Self.versions.sorted() == Self.versions.sorted().sorted())
    }
}
