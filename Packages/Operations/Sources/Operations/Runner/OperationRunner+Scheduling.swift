extension OperationRunner {
    /// A dependency outside this runner to wait for, and what its failure means.
    struct Edge {
        let operation: OperationLifecycle
        let policy: DependencyPolicy
    }

    /// Adds `lifecycle`, waiting for `dependencies`: edges, or anything that names one (the
    /// variadic `add` passes its arguments as they are, to spare an array).
    func insert(
        _ lifecycle: OperationLifecycle, after dependencies: [any OperationDependencyConvertible],
        exclusiveIn categories: [String], isolation: (any Actor)?
    ) -> Result<Void, OperationRunnerError> {
        let dependsOnItself = dependencies.contains { $0.dependency.operation.lifecycle === lifecycle }
        let outcome = state.withLock { state -> Result<([Edge], Int), OperationRunnerError> in
            if let error = lifecycle.enqueue(into: self, isolation: isolation, dependsOnItself: dependsOnItself) {
                return .failure(error)
            }
            append(lifecycle, to: &state)
            var edges: [Edge] = []
            for item in dependencies {
                let dependency = item.dependency
                let target = dependency.operation.lifecycle
                if let edge = link(lifecycle, to: target, policy: dependency.policy, in: &state) { edges.append(edge) }
            }
            for category in categories {
                if let holder = state.lastInCategory[category] {
                    // The holder is in this runner until it finishes, which clears its categories.
                    lifecycle.entry.waitingOn += 1
                    holder.entry.dependents.append((lifecycle, .ignoreFailure))
                }
                state.lastInCategory[category] = lifecycle
            }
            if lifecycle.entry.waitingOn == 0 { makeReady(lifecycle, in: &state) }
            return .success((edges, claimWorkers(&state)))
        }
        switch outcome {
        case .failure(let error): return .failure(error)
        case .success(let (edges, workers)):
            watch(edges, for: lifecycle)
            spawnWorkers(workers)
            return .success(())
        }
    }

    /// Makes `dependent` wait for `dependency`: through the dependency's entry when this runner
    /// owns it (adopting it first when nobody started it), or else as an edge to watch.
    func link(
        _ dependent: OperationLifecycle, to dependency: OperationLifecycle, policy: DependencyPolicy,
        in state: inout State
    ) -> Edge? {
        dependent.entry.waitingOn += 1
        switch dependency.claim(for: self) {
        case .elsewhere:
            return Edge(operation: dependency, policy: policy)
        case .adopted:
            // A dependency nobody started is added too, so a dependent never waits for it forever.
            append(dependency, to: &state)
            makeReady(dependency, in: &state)
        case .owned:
            break
        }
        dependency.entry.dependents.append((dependent, policy))
        return nil
    }

    /// Adds an operation to the runner's list, waiting.
    func append(_ operation: OperationLifecycle, to state: inout State) {
        operation.entry.status = .waiting
        state.members.append(operation)
    }

    func makeReady(_ operation: OperationLifecycle, in state: inout State) {
        operation.entry.status = .ready
        state.ready.append(operation)
    }

    /// Listens for the end of each dependency outside this runner.
    ///
    /// The dependent is held weakly: the runner keeps it while it waits, and a dependency that
    /// never finishes must not keep it alive once it left (cancelled).
    func watch(_ edges: [Edge], for dependent: OperationLifecycle) {
        for edge in edges {
            let policy = edge.policy
            edge.operation.observeFinish { [self, weak dependent] kind in
                if let dependent { dependencyFinished(dependent, kind: kind, policy: policy) }
            }
        }
    }

    /// Counts down a dependency outside this runner that finished.
    func dependencyFinished(_ dependent: OperationLifecycle, kind: FinishKind, policy: DependencyPolicy) {
        enum Action { case none, cancel, spawn(Int) }
        let action = state.withLock { state -> Action in
            guard dependent.entry.status == .waiting else { return .none }
            if kind != .succeeded && policy == .requireSuccess { return .cancel }
            dependent.entry.waitingOn -= 1
            guard dependent.entry.waitingOn == 0 else { return .none }
            makeReady(dependent, in: &state)
            return .spawn(claimWorkers(&state))
        }
        switch action {
        case .none: break
        case .cancel: dependent.cancel()
        case .spawn(let count): spawnWorkers(count)
        }
    }

    /// Forgets a finished operation and counts it down in its dependents. Returns the
    /// dependents that required it to succeed and must now be cancelled.
    func forget(
        _ operation: OperationLifecycle, finished kind: FinishKind, in state: inout State
    ) -> [OperationLifecycle] {
        guard operation.entry.status != .outside else { return [] }
        state.members.remove(operation)
        operation.entry.status = .outside
        if !state.lastInCategory.isEmpty {
            for (category, holder) in state.lastInCategory where holder === operation {
                state.lastInCategory.removeValue(forKey: category)
            }
        }
        guard !operation.entry.dependents.isEmpty else { return [] }
        let dependents = operation.entry.dependents
        operation.entry.dependents = []
        var cancelled: [OperationLifecycle] = []
        for (dependent, policy) in dependents where dependent.entry.status == .waiting {
            if kind != .succeeded && policy == .requireSuccess {
                cancelled.append(dependent)
                continue
            }
            dependent.entry.waitingOn -= 1
            if dependent.entry.waitingOn == 0 { makeReady(dependent, in: &state) }
        }
        return cancelled
    }

    /// Forgets an operation whose cancellation was delivered; see `forget`.
    func remove(_ operation: OperationLifecycle, finished kind: FinishKind) {
        var leftovers: [OperationLifecycle?] = []
        let (cancelled, idleWaiters, spawn) = state.withLock { state in
            let cancelled = forget(operation, finished: kind, in: &state)
            return (cancelled, takeIdleWaiters(&state, leftovers: &leftovers), claimWorkers(&state))
        }
        leftovers = []
        for waiter in idleWaiters { waiter.resume() }
        for dependent in cancelled { dependent.cancel() }
        spawnWorkers(spawn)
    }

    /// Once the runner is empty: the waiters of `waitUntilIdle()` to resume, and, in
    /// `leftovers`, the ready queue's slots (operations cancelled while queued in a suspended
    /// runner), for the caller to release after the lock.
    func takeIdleWaiters(
        _ state: inout State, leftovers: inout [OperationLifecycle?]
    ) -> [CheckedContinuation<Void, Never>] {
        guard state.members.isEmpty else { return [] }
        if state.readyHead < state.ready.count {
            swap(&leftovers, &state.ready)
            state.readyHead = 0
        }
        guard !state.idleWaiters.isEmpty else { return [] }
        defer { state.idleWaiters = [] }
        return state.idleWaiters
    }
}
