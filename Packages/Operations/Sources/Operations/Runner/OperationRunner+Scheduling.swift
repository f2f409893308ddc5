extension OperationRunner {
    /// A waiting edge: the operation to wait for and what its failure means.
    struct Edge {
        let lifecycle: OperationLifecycle
        let policy: DependencyPolicy
    }

    func insert(
        _ operation: some RunnableOperation, after dependencies: [OperationDependency],
        exclusiveIn categories: [String],
        isolation: (any Actor)?
    ) -> Result<Void, OperationRunnerError> {
        let lifecycle = operation.lifecycle
        let id = ObjectIdentifier(lifecycle)
        guard let driver = lifecycle.state.withLock({ $0.driver }) else {
            return .failure(.alreadyFinished(operation: lifecycle.name))
        }
        let callerIsolation = driver.usesCallerContext ? isolation : nil
        let outcome = state.withLock { state -> Result<([Edge], Int), OperationRunnerError> in
            if state.nodes[id] != nil { return .failure(.alreadyAdded(operation: lifecycle.name)) }
            if let error = Self.refusal(of: lifecycle) { return .failure(error) }
            if dependencies.contains(where: { ObjectIdentifier($0.operation.lifecycle) == id }) {
                return .failure(.dependencyCycle(path: [lifecycle.name, lifecycle.name]))
            }
            guard lifecycle.enqueue(isolation: callerIsolation, observer: { [self] _ in nodeFinished(id) }) else {
                return .failure(Self.refusal(of: lifecycle) ?? .alreadyStarted(operation: lifecycle.name))
            }
            let node = Node(operation: operation, driver: driver, sequence: state.sequence)
            state.sequence += 1
            var edges: [Edge] = []
            for dependency in dependencies {
                let dependencyID = ObjectIdentifier(dependency.operation.lifecycle)
                if state.nodes[dependencyID] != nil || adopt(dependency.operation, into: &state) {
                    node.dependencies.insert(dependencyID)
                }
                edges.append(Edge(lifecycle: dependency.operation.lifecycle, policy: dependency.policy))
            }
            for category in categories {
                if let previous = state.lastInCategory[category], let holder = state.nodes[previous] {
                    node.dependencies.insert(previous)
                    edges.append(Edge(lifecycle: holder.operation.lifecycle, policy: .ignoreFailure))
                }
                state.lastInCategory[category] = id
            }
            node.waitingOn = edges.count
            state.nodes[id] = node
            if edges.isEmpty { state.ready.append(node) }
            return .success((edges, claimWorkers(&state)))
        }
        switch outcome {
        case .failure(let error): return .failure(error)
        case .success(let (edges, workers)):
            watch(edges, for: id)
            spawnWorkers(workers)
            return .success(())
        }
    }

    /// Why an operation cannot be enqueued, judged from its lifecycle; nil when it can.
    static func refusal(of lifecycle: OperationLifecycle) -> OperationRunnerError? {
        lifecycle.state.withLock { state in
            switch state.phase {
            case .idle: state.isCancelled ? .alreadyFinished(operation: state.name ?? lifecycle.fallbackName) : nil
            case .enqueued, .running: .alreadyStarted(operation: state.name ?? lifecycle.fallbackName)
            case .returned, .finished: .alreadyFinished(operation: state.name ?? lifecycle.fallbackName)
            }
        }
    }

    /// Enqueues a dependency nobody started yet, so a dependent never waits for it forever.
    func adopt(_ operation: any RunnableOperation, into state: inout State) -> Bool {
        let lifecycle = operation.lifecycle
        let id = ObjectIdentifier(lifecycle)
        guard let driver = lifecycle.state.withLock({ $0.driver }),
            lifecycle.enqueue(isolation: nil, observer: { [self] _ in nodeFinished(id) })
        else { return false }
        let node = Node(operation: operation, driver: driver, sequence: state.sequence)
        state.nodes[id] = node
        state.sequence += 1
        state.ready.append(node)
        return true
    }

    /// Listens for each dependency's end.
    func watch(_ edges: [Edge], for id: ObjectIdentifier) {
        for edge in edges {
            let dependencyID = ObjectIdentifier(edge.lifecycle)
            let policy = edge.policy
            edge.lifecycle.observeFinish { [self] kind in
                dependencyFinished(id, dependencyID: dependencyID, kind: kind, policy: policy)
            }
        }
    }

    func dependencyFinished(
        _ id: ObjectIdentifier, dependencyID: ObjectIdentifier, kind: FinishKind, policy: DependencyPolicy
    ) {
        enum Action { case none, cancel(OperationLifecycle), spawn(Int) }
        let action = state.withLock { state -> Action in
            guard let node = state.nodes[id], !node.isRunning else { return .none }
            node.dependencies.remove(dependencyID)
            if kind != .succeeded && policy == .requireSuccess {
                return .cancel(node.operation.lifecycle)
            }
            node.waitingOn -= 1
            guard node.waitingOn == 0 else { return .none }
            state.ready.append(node)
            return .spawn(claimWorkers(&state))
        }
        switch action {
        case .none: break
        case .cancel(let lifecycle): lifecycle.cancel()
        case .spawn(let count): spawnWorkers(count)
        }
    }

    func nodeFinished(_ id: ObjectIdentifier) {
        // The node (and the operation it may hold last) is released after the lock, not under it.
        var removed: Node?
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            removed = state.nodes.removeValue(forKey: id)
            removed?.isFinished = true
            if !state.lastInCategory.isEmpty {
                for (category, holder) in state.lastInCategory where holder == id {
                    state.lastInCategory.removeValue(forKey: category)
                }
            }
            guard state.nodes.isEmpty else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        removed = nil
        for waiter in waiters { waiter.resume() }
    }
}
