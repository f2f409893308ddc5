import Testing

@testable import Operations

@Suite("Callback order under racing cancellations")
struct CancellationRaceTests {
    static let validSequences: Set<[String]> = [
        ["finish:cancelled"],
        ["start", "return", "finish:cancelled"],
        ["start", "return", "success", "finish:succeeded"],
    ]

    func makeOperation(_ index: Int, log: EventLog) -> StatefulOperation<Int, any Error> {
        StatefulOperation(base: .none) { () async throws -> Int in
            if index.isMultiple(of: 2) { await Task.yield() }
            return index
        }
        .onStart(on: .caller) { log.record("start") }
        .onReturn(on: .caller) { log.record("return") }
        .onSuccess(on: .caller) { _ in log.record("success") }
        .onFail(on: .caller) { _ in log.record("fail") }
        .onFinish(on: .caller) { log.record($0.isCancelled ? "finish:cancelled" : "finish:succeeded") }
    }

    func check(_ operations: [StatefulOperation<Int, any Error>], _ logs: [EventLog]) async {
        var seen: [[String]: Int] = [:]
        for (operation, log) in zip(operations, logs) {
            let outcome = await operation.outcome
            let events = log.all
            seen[events, default: 0] += 1
            #expect(Self.validSequences.contains(events), "invalid order \(events)")
            #expect(events.last == (outcome.isCancelled ? "finish:cancelled" : "finish:succeeded"))
        }
        #expect(seen.values.reduce(0, +) == operations.count)
    }

    @Test("10 000 cancels racing 10 000 starts leave every operation with one valid callback sequence")
    func standaloneRace() async {
        let logs = (0..<10_000).map { _ in EventLog() }
        let operations = logs.indices.map { makeOperation($0, log: logs[$0]) }
        await withTaskGroup(of: Void.self) { group in
            for operation in operations {
                group.addTask { operation.start() }
                group.addTask { operation.cancel() }
            }
        }
        await check(operations, logs)
    }

    @Test("10 000 cancels racing a runner and its cancelAll leave every operation with one valid sequence")
    func runnerRace() async {
        let runner = OperationRunner(maxConcurrent: 4)
        let logs = (0..<10_000).map { _ in EventLog() }
        let operations = logs.indices.map { makeOperation($0, log: logs[$0]) }
        for (index, operation) in operations.enumerated() {
            if index > 0 && index.isMultiple(of: 3) {
                runner.add(operation, after: operations[index - 1].ignoringFailure)
            } else {
                runner.add(operation)
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for operation in operations { group.addTask { operation.cancel() } }
            group.addTask { runner.cancelAll() }
        }
        await runner.waitUntilIdle()
        await check(operations, logs)
        #expect(runner.count == 0)
    }
}
