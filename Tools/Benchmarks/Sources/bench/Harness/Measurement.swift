/// How long to measure.
struct MeasurementPlan {
    /// Rounds of (ours, peer) samples; the median is reported.
    var rounds: Int
    /// The shortest time one sample should take; units are repeated until it does.
    var minimumSample: Duration
    /// The most units one sample may hold.
    var maximumIterations: Int
    /// Whether each side runs once, untimed, before sampling (caches, lazy initialisation).
    var warmsUp: Bool

    /// A full run, for `make bench`.
    static let full = MeasurementPlan(
        rounds: 9, minimumSample: .milliseconds(20), maximumIterations: 1_000_000, warmsUp: true)
    /// A smoke run, for CI: every case's ours and peer exactly once, to prove they run.
    static let smoke = MeasurementPlan(rounds: 1, minimumSample: .zero, maximumIterations: 1, warmsUp: false)
}

/// The result of one comparison.
struct BenchmarkResult {
    var suite: String
    var name: String
    var peer: String?
    var target: Double?
    var oursNanoseconds: Double
    var peerNanoseconds: Double?
    var metrics: [String: Double]

    /// `peer_ns / ours_ns`: above 1 means we are faster.
    var ratio: Double? { peerNanoseconds.map { $0 / oursNanoseconds } }
}

enum Measurement {
    static func run(_ benchmark: BenchmarkCase, plan: MeasurementPlan) async throws -> BenchmarkResult {
        // Warm up both sides once (caches, lazy initialisation), then size a sample on ours.
        if plan.warmsUp {
            try await benchmark.ours()
            try await benchmark.theirs?()
        }
        let iterations = try await calibrate(benchmark.ours, plan: plan)
        var oursSamples: [Double] = []
        var peerSamples: [Double] = []
        for round in 0..<plan.rounds {
            // Alternate which side goes first so drift in the machine's load hits both alike.
            if round.isMultiple(of: 2) {
                oursSamples.append(try await sample(benchmark.ours, iterations: iterations))
                if let theirs = benchmark.theirs {
                    peerSamples.append(try await sample(theirs, iterations: iterations))
                }
            } else {
                if let theirs = benchmark.theirs {
                    peerSamples.append(try await sample(theirs, iterations: iterations))
                }
                oursSamples.append(try await sample(benchmark.ours, iterations: iterations))
            }
        }
        return BenchmarkResult(
            suite: benchmark.suite, name: benchmark.name, peer: benchmark.peer, target: benchmark.target,
            oursNanoseconds: median(oursSamples), peerNanoseconds: peerSamples.isEmpty ? nil : median(peerSamples),
            metrics: try await benchmark.metrics())
    }

    /// Nanoseconds per unit over `iterations` units.
    static func sample(_ unit: () async throws -> Void, iterations: Int) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations { try await unit() }
        let elapsed = start.duration(to: clock.now)
        return nanoseconds(elapsed) / Double(iterations)
    }

    static func calibrate(_ unit: () async throws -> Void, plan: MeasurementPlan) async throws -> Int {
        var iterations = 1
        while iterations < plan.maximumIterations {
            let perUnit = try await sample(unit, iterations: iterations)
            let total = perUnit * Double(iterations)
            if total >= nanoseconds(plan.minimumSample) { break }
            iterations = min(plan.maximumIterations, iterations * 4)
        }
        return iterations
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }
}
