import Foundation
@_spi(Internal) import Hummingbird
import Router
import RoutingKit

#if canImport(Glibc)
    import Glibc
#endif

/// Benchmarks of the Router package against its peers (see the package's issue for the targets).
///
/// Every router gets a `String` and returns a route id; each peer pays its own costs
/// (routing-kit's splitting into `[String]` and its `Parameters`, Hummingbird's `Parameters`).
/// Beside the timings: how many of the backtracking cases each router gets right, and
/// how many single static matches touched the heap.
enum RouterBenchmarks {
    static func cases() async throws -> [BenchmarkCase] {
        let github = try RouteSet(file: "github")
        let statics = try RouteSet(file: "static")
        let correctness = BacktrackingCase.metrics()
        var cases: [BenchmarkCase] = []
        for (set, name) in [(github, "github-api"), (statics, "static")] {
            let ours = try set.ours()
            let routingKit = set.routingKit()
            let hummingbird = set.hummingbird()
            let sink = Sink()
            let oursUnit: () -> Void = {
                for path in set.paths { sink.value &+= ours.match(path)?.route.id ?? -1 }
            }
            let routingKitUnit: () -> Void = {
                for path in set.paths {
                    var parameters = RoutingKit.Parameters()
                    sink.value &+=
                        routingKit.route(path: path.split(separator: "/").map(String.init), parameters: &parameters)
                        ?? -1
                }
            }
            let hummingbirdUnit: () -> Void = {
                for path in set.paths { sink.value &+= hummingbird.resolve(path)?.value ?? -1 }
            }
            // Every router must find every route; a peer that misses some is reported, not hidden.
            let oursCorrect = set.paths.indices.filter { ours.match(set.paths[$0])?.route.id == $0 }.count
            let routingKitCorrect = set.paths.indices.filter { index in
                var parameters = RoutingKit.Parameters()
                return routingKit.route(
                    path: set.paths[index].split(separator: "/").map(String.init), parameters: &parameters) == index
            }.count
            let hummingbirdCorrect = set.paths.indices.filter { hummingbird.resolve(set.paths[$0])?.value == $0 }.count
            let isStatic = name == "static"
            cases.append(
                BenchmarkCase(
                    suite: "router", name: "\(name)-match", peer: "routing-kit", target: 1.5, ours: oursUnit,
                    theirs: routingKitUnit,
                    metrics: {
                        var metrics = correctness
                        metrics["routes"] = Double(set.paths.count)
                        metrics["correct_ours"] = Double(oursCorrect)
                        metrics["correct_peer"] = Double(routingKitCorrect)
                        if let touched = HeapProbe.touchingCalls(set.paths, { _ = ours.match($0) }) {
                            metrics["heap_matches_ours"] = Double(touched)
                        }
                        if isStatic,
                            let touched = HeapProbe.touchingCalls(
                                set.paths,
                                { path in
                                    var parameters = RoutingKit.Parameters()
                                    _ = routingKit.route(
                                        path: path.split(separator: "/").map(String.init), parameters: &parameters)
                                })
                        {
                            metrics["heap_matches_peer"] = Double(touched)
                        }
                        return metrics
                    }))
            cases.append(
                BenchmarkCase(
                    suite: "router", name: "\(name)-match-hb", peer: "hummingbird trie", ours: oursUnit,
                    theirs: hummingbirdUnit,
                    metrics: {
                        var metrics = correctness
                        metrics["routes"] = Double(set.paths.count)
                        metrics["correct_ours"] = Double(oursCorrect)
                        metrics["correct_peer"] = Double(hummingbirdCorrect)
                        if isStatic, let touched = HeapProbe.touchingCalls(set.paths, { _ = hummingbird.resolve($0) }) {
                            metrics["heap_matches_peer"] = Double(touched)
                        }
                        return metrics
                    }))
        }
        return cases
    }
}

/// Keeps results alive so the optimiser cannot drop the work.
private final class Sink: @unchecked Sendable {
    var value = 0
}

/// A route set from `<repo>/Tests/Fixtures/routes`, one route per distinct path (GET where
/// methods clash), with a concrete path per route.
private struct RouteSet {
    let patterns: [String]
    let paths: [String]

    init(file: String) throws {
        // #filePath is …/Tools/Benchmarks/Sources/bench/Suites/RouterBenchmarks.swift.
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Fixtures/routes")
        let text = try String(contentsOf: directory.appendingPathComponent("\(file).txt"), encoding: .utf8)
        var seen: Set<String> = []
        var patterns: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: " ")
            if parts.count == 2, seen.insert(String(parts[1])).inserted { patterns.append(String(parts[1])) }
        }
        self.patterns = patterns
        self.paths = patterns.map { pattern in
            pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment in
                guard segment.hasPrefix(":") else { return String(segment) }
                switch segment.dropFirst() {
                case "owner", "user", "org": return "octocat"
                case "repo": return "hello-world"
                case "sha", "ref": return "6dcb09b5b57875f334f61aebed695e2e4193db5e"
                case "id", "number": return "1347"
                default: return "value-\(segment.dropFirst())"
                }
            }.joined(separator: "/")
        }
    }

    func ours() throws -> RouteTable {
        let table = RouteTable()
        for pattern in patterns { try table.add(pattern) { _ in } }
        // Route ids are registration order, the same numbering the peers get.
        return table
    }

    func routingKit() -> TrieRouter<Int> {
        let router = TrieRouter<Int>()
        for (index, pattern) in patterns.enumerated() {
            #if DEBUG
                // routing-kit asserts on the empty path of `/` in debug builds (release registers it at the
                // root). Debug builds are only smoke runs, so the route is left out there.
                if pattern.pathComponents.isEmpty { continue }
            #endif
            router.register(index, at: pattern.pathComponents)
        }
        return router
    }

    func hummingbird() -> RouterTrie<Int> {
        let builder = RouterPathTrieBuilder<Int>()
        for (index, pattern) in patterns.enumerated() { builder.addEntry(RouterPath(pattern), value: index) }
        return builder.build()
    }
}

/// The backtracking cases (routing-kit #92, hummingbird #478), run on all three routers.
private struct BacktrackingCase {
    let patterns: [String]
    let path: String
    let expected: Int

    static let all = [
        BacktrackingCase(patterns: ["/p/:name", "/p/fixed/x"], path: "/p/fixed", expected: 0),
        BacktrackingCase(patterns: ["/a/b/c", "/:x/b/d"], path: "/a/b/d", expected: 1),
        BacktrackingCase(patterns: ["/a/:x/c", "/a/*/d"], path: "/a/b/d", expected: 1),
        BacktrackingCase(patterns: ["/files/special/x", "/files/**"], path: "/files/special", expected: 1),
    ]

    static func metrics() -> [String: Double] {
        var ours = 0
        var routingKit = 0
        var hummingbird = 0
        for test in all {
            let table = RouteTable()
            let kit = TrieRouter<Int>()
            let builder = RouterPathTrieBuilder<Int>()
            for (index, pattern) in test.patterns.enumerated() {
                _ = try? table.add(pattern) { _ in }
                kit.register(index, at: pattern.pathComponents)
                builder.addEntry(RouterPath(pattern), value: index)
            }
            if table.match(test.path)?.route.id == test.expected { ours += 1 }
            var parameters = RoutingKit.Parameters()
            if kit.route(path: test.path.split(separator: "/").map(String.init), parameters: &parameters)
                == test.expected
            {
                routingKit += 1
            }
            if builder.build().resolve(test.path)?.value == test.expected { hummingbird += 1 }
        }
        return [
            "backtrack_cases": Double(all.count), "backtrack_ours": Double(ours),
            "backtrack_routingkit": Double(routingKit), "backtrack_hummingbird": Double(hummingbird),
        ]
    }
}

/// Counts calls that took memory from the heap, using glibc's `mallinfo2`.
///
/// A chunk freed into the thread's tcache still counts as in use, so once the tcache is emptied
/// (by taking and holding 8 chunks of every small size), any allocation during a call shows as
/// growth of the bytes in use, even if the call freed it again.
private enum HeapProbe {
    static func touchingCalls(_ inputs: [String], _ body: (String) -> Void) -> Int? {
        #if os(Linux) && arch(x86_64) && canImport(Glibc)
            guard bytesInUse() != nil else { return nil }
            for input in inputs { body(input) }  // warm up lazy state
            let sizes = Array(stride(from: 16, through: 1_040, by: 16))
            // Chunks are held until the end: freed early, they would refill the tcache.
            var held: [UnsafeMutableRawPointer?] = []
            held.reserveCapacity(inputs.count * sizes.count * 8)
            var touched = 0
            for input in inputs {
                for size in sizes {
                    for _ in 0..<8 { held.append(malloc(size)) }
                }
                let before = bytesInUse()
                body(input)
                if bytesInUse() != before { touched += 1 }
            }
            for pointer in held { free(pointer) }
            return touched
        #else
            return nil
        #endif
    }

    #if os(Linux) && arch(x86_64) && canImport(Glibc)
        /// `uordblks + hblkhd` from `mallinfo2`, found with `dlsym` (glibc's `malloc.h` is not
        /// imported into Swift). Its 80-byte result comes back through a hidden pointer, which the
        /// SysV x86-64 ABI passes as the first argument.
        static func bytesInUse() -> Int? {
            typealias Function = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
            guard let symbol = dlsym(nil, "mallinfo2") else { return nil }
            let function = unsafeBitCast(symbol, to: Function.self)
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: 10) { info in
                guard let base = info.baseAddress else { return nil }
                info.initialize(repeating: 0)
                _ = function(UnsafeMutableRawPointer(base))
                return info[7] + info[4]  // uordblks, hblkhd
            }
        }
    #endif
}
