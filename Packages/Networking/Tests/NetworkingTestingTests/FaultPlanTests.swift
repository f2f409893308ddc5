import Foundation
import Networking
import NetworkingTesting
import Testing

/// Plans decide faults by arrival number; a seeded plan gives the same faults in every run.
@Suite("FaultPlan: scripted and seeded fault plans")
struct FaultPlanTests {
    private static let mix: [Fault] = [
        .dropRequest, .dropResponse, .duplicate, .delay(.milliseconds(1)), .serviceUnavailable(retryAfter: 1),
    ]

    private static func request(_ index: Int, method: String = "PUT") -> FaultProxy.Request {
        FaultProxy.Request(index: index, method: method, target: "/api/notes/\(index)")
    }

    @Test("a script applies its faults by arrival number, then the rest")
    func script() {
        let plan = FaultPlan.script([.dropRequest, .passThrough, .duplicate], then: .reorder)
        #expect(
            (0..<5).map { plan.fault(for: Self.request($0)) } == [
                .dropRequest, .passThrough, .duplicate, .reorder, .reorder,
            ])
    }

    @Test("the same seed gives the same faults; another seed gives others; the rate is kept")
    func seededDraws() {
        let draws = { (seed: UInt64) in
            let plan = FaultPlan.random(seed: seed, faultRate: 0.3, faults: Self.mix)
            return (0..<10_000).map { plan.fault(for: Self.request($0)) }
        }
        let first = draws(42)
        #expect(first == draws(42))
        #expect(first != draws(43))
        let faulted = first.filter { $0 != .passThrough }.count
        #expect((2_700...3_300).contains(faulted), "\(faulted) of 10 000 at a rate of 0.3")
        for fault in Self.mix { #expect(first.contains(fault), "never drew \(fault)") }
        // A draw depends on the arrival number alone, not on what was drawn before.
        let plan = FaultPlan.random(seed: 42, faultRate: 0.3, faults: Self.mix)
        #expect(plan.fault(for: Self.request(9_999)) == first[9_999])
    }

    @Test("rate 0 and an empty list never fault, rate 1 always does, and the filter is respected")
    func bounds() {
        let never = FaultPlan.random(seed: 1, faultRate: 0, faults: Self.mix)
        let empty = FaultPlan.random(seed: 1, faultRate: 1, faults: [])
        let always = FaultPlan.random(seed: 1, faultRate: 1, faults: Self.mix)
        let writesOnly = FaultPlan.random(seed: 1, faultRate: 1, faults: Self.mix) { $0.method != "GET" }
        for index in 0..<500 {
            #expect(never.fault(for: Self.request(index)) == .passThrough)
            #expect(empty.fault(for: Self.request(index)) == .passThrough)
            #expect(always.fault(for: Self.request(index)) != .passThrough)
            #expect(writesOnly.fault(for: Self.request(index, method: "GET")) == .passThrough)
        }
    }

    @Test("two proxies on the same seed apply the same faults to the same requests")
    func seededProxiesAgree() async throws {
        let faults: [Fault] = [.dropRequest, .dropResponse, .duplicate, .serviceUnavailable(retryAfter: 1)]
        func run() async throws -> (faults: [Fault], upstream: Int, outcomes: [FaultProxy.Outcome]) {
            try await ProxiedServer.with(plan: .random(seed: 2024, faultRate: 0.5, faults: faults)) { fixture throws in
                await fixture.server.route("PUT /api/notes/*", reply: .status(204))
                for index in 0..<16 {
                    _ = try? await fixture.client.send(HTTPRequest(method: .put, path: "notes/\(index)"))
                }
                return (
                    fixture.proxy.exchanges.map(\.fault), fixture.server.requests.count,
                    fixture.proxy.exchanges.map(\.outcome)
                )
            }
        }
        let first = try await run()
        let second = try await run()
        #expect(first.faults.count == 16)
        #expect(first.faults == second.faults)
        #expect(first.outcomes == second.outcomes)
        #expect(first.upstream == second.upstream)
        let plan = FaultPlan.random(seed: 2024, faultRate: 0.5, faults: faults)
        #expect(first.faults == (0..<16).map { plan.fault(for: Self.request($0)) })
        // What the upstream saw follows from the faults: duplicates twice, dropped requests and 503s never.
        let expected = first.faults.reduce(0) { sum, fault in
            sum + (fault == .duplicate ? 2 : fault.forwards ? 1 : 0)
        }
        #expect(first.upstream == expected)
        #expect(Set(first.faults).count > 2, "a seed that exercises several faults")
    }
}
