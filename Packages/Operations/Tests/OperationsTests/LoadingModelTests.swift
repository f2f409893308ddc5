import Observation
import Testing
import _KitSupport

@testable import Operations

@Suite("LoadingModel and LoadState")
@MainActor
struct LoadingModelTests {
    @Test("a load moves from idle through loading to loaded")
    func loads() async {
        let model = LoadingModel(load: { [1, 2] }, isEmpty: { $0.isEmpty })
        #expect(model.state.name == "idle")
        let states = model.states
        await model.load()
        #expect(model.state.value == [1, 2])
        var names: [String] = []
        for await state in states {
            names.append(state.name)
            if names.count == 3 { break }
        }
        #expect(names == ["idle", "loading", "loaded"])
    }

    @Test("an empty result gives .empty")
    func empty() async {
        let model = LoadingModel(load: { [Int]() }, isEmpty: { $0.isEmpty })
        await model.load()
        #expect(model.state.name == "empty")
    }

    @Test("a failure gives .failed, and retry loads again")
    func failureThenRetry() async {
        let flaky = Flaky(failures: 1)
        let model = LoadingModel(load: { try flaky.call() })
        await model.load()
        #expect(model.state.error as? LoginError == .locked(minutes: 1))
        await model.retry()
        #expect(model.state.value == 2)
    }

    @Test("a load while one is under way joins it instead of loading twice")
    func joinsInFlightLoad() async {
        let gate = Gate()
        let gauge = Gauge()
        let model = LoadingModel(load: {
            gauge.enter()
            await gate.wait()
            return 1
        })
        async let first: Void = model.load()
        await settle { model.state.isLoading }
        // A task made on the main actor is queued there at once, ahead of the first load's
        // resumption: `async let` would reach the main actor only after a hop, racing the gate.
        let second = Task { @MainActor in await model.load() }
        gate.open()
        _ = await (first, second.value)
        #expect(gauge.total == 1)
        #expect(model.state.value == 1)
    }

    @Test("cancelling a load returns the state to idle")
    func cancel() async {
        let model = LoadingModel(load: { () async throws -> Int in
            while !Task.isCancelled { await Task.yield() }
            throw CancellationError()
        })
        async let load: Void = model.load()
        await settle { model.state.isLoading }
        model.cancel()
        await load
        #expect(model.state.name == "idle")
    }

    @Test("Observation reports each state change to a reader of state, after the load has begun")
    func observation() async throws {
        let model = LoadingModel(load: { "value" })
        let changed = Locked(0)
        withObservationTracking {
            _ = model.state
        } onChange: {
            changed.withLock { $0 += 1 }
        }
        await model.load()
        // One-shot tracking: the first change (to .loading) fires it, once.
        #expect(changed.withLock { $0 } == 1)
        #expect(model.state.value == "value")
    }
}
