import Testing

@testable import Operations

@Suite("The runner's list of operations")
struct RunnerMembersTests {
    /// A generator with a fixed seed, so that a failure can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("operations leave in any order and the rest stay in the order they were added", arguments: [1, 2, 3])
    func randomRemovals(seed: UInt64) {
        var generator = SplitMix(state: seed)
        var members = OperationRunner.Members()
        var expected: [OperationLifecycle] = []
        for round in 0..<6 {
            for _ in 0..<(round.isMultiple(of: 2) ? 3_000 : 200) {
                let operation = StatefulOperation(base: .none) {}
                members.append(operation)
                expected.append(operation)
            }
            // Keep the first operation of the round for long, as a long-running one would be.
            let keep = expected.first
            for _ in 0..<(expected.count * 4 / 5) {
                let index = Int.random(in: 0..<expected.count, using: &generator)
                if expected[index] === keep { continue }
                members.remove(expected.remove(at: index))
            }
            #expect(members.count == expected.count)
            #expect(members.all.map(ObjectIdentifier.init) == expected.map(ObjectIdentifier.init))
            // Behind the operation kept, the empty slots were dropped once they outnumbered the rest.
            #expect(members.slotCount < 4 * expected.count + 1_024)
        }
        for operation in expected { members.remove(operation) }
        #expect(members.isEmpty && members.all.isEmpty)
    }

    @Test("operations leaving first to last, as a busy runner's do, keep the list short")
    func inOrderRemovals() {
        var members = OperationRunner.Members()
        var window: [OperationLifecycle] = []
        for _ in 0..<20_000 {
            let operation = StatefulOperation(base: .none) {}
            members.append(operation)
            window.append(operation)
            if window.count > 100 { members.remove(window.removeFirst()) }
        }
        #expect(members.count == 100)
        #expect(members.slotCount <= 2_048 + 100)
        #expect(members.all.map(ObjectIdentifier.init) == window.map(ObjectIdentifier.init))
    }
}
