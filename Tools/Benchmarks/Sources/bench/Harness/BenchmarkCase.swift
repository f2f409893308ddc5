/// One comparison: a unit of our work and the same unit done by a peer, measured alternately.
///
/// A "unit" should do enough to dwarf the cost of one async call (match every route of a set,
/// post one event to N subscribers, encode 1 000 records). The harness repeats a unit until a
/// sample is long enough to time, so units may be small too.
struct BenchmarkCase {
    /// The package, in lower case: `"router"`.
    var suite: String
    /// What is measured, in kebab case: `"github-api-match"`.
    var name: String
    /// The peer's name as the issue spells it (`"routing-kit"`), or nil for a figure we only report.
    var peer: String?
    /// The target ratio from the issue (`peer_ns / ours_ns`), shown beside the result.
    var target: Double?
    /// One unit of our work.
    var ours: () async throws -> Void
    /// The same unit done by the peer.
    var theirs: (() async throws -> Void)?
    /// Extra figures worth reporting (allocations per match, peak memory, bytes): computed once
    /// after timing, added to the JSON line and the table's notes.
    var metrics: () async throws -> [String: Double] = { [:] }

    init(
        suite: String, name: String, peer: String? = nil, target: Double? = nil,
        ours: @escaping () async throws -> Void, theirs: (() async throws -> Void)? = nil,
        metrics: @escaping () async throws -> [String: Double] = { [:] }
    ) {
        self.suite = suite
        self.name = name
        self.peer = peer
        self.target = target
        self.ours = ours
        self.theirs = theirs
        self.metrics = metrics
    }
}
