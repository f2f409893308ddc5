extension OperationRunner {
    /// Makes an operation waiting in this runner also wait for `dependency`.
    ///
    /// The check for cycles runs first: a dependency that would close one is refused with
    /// ``OperationRunnerError/dependencyCycle(path:)`` and nothing changes.
    /// - Parameters:
    ///   - operation: An operation added to this runner that has not started.
    ///   - dependency: An operation (which must succeed) or an edge such as `other.ignoringFailure`.
    /// - Returns: Success, or why nothing changed.
    @discardableResult
    public func addDependency(
        _ operation: some RunnableOperation, on dependency: any OperationDependencyConvertible
    ) -> Result<Void, OperationRunnerError> {
        let edge = dependency.dependency
        let lifecycle = operation.lifecycle
        let target = edge.operation.lifecycle
        let outcome = state.withLock { state -> Result<Edge?, OperationRunnerError> in
            guard lifecycle.isOwned(by: self), lifecycle.entry.status == .waiting || lifecycle.entry.status == .ready
            else { return .failure(.notPending(operation: lifecycle.name)) }
            if target.isOwned(by: self), let path = Self.path(from: target, to: lifecycle) {
                return .failure(.dependencyCycle(path: [lifecycle.name] + path.map(\.name)))
            }
            let external = link(lifecycle, to: target, policy: edge.policy, in: &state)
            // Back to waiting: a copy left in the ready queue is skipped.
            lifecycle.entry.status = .waiting
            return .success(external)
        }
        switch outcome {
        case .failure(let error): return .failure(error)
        case .success(let external):
            if let external { watch([external], for: lifecycle) }
            return .success(())
        }
    }

    /// The chain of dependencies in this runner leading from `start` to `target`, both
    /// included; nil if none. Found by walking from `target` through the operations waiting for it.
    /// Call under the runner's lock.
    static func path(from start: OperationLifecycle, to target: OperationLifecycle) -> [OperationLifecycle]? {
        var parent: [ObjectIdentifier: OperationLifecycle] = [:]
        var visited: Set<ObjectIdentifier> = [ObjectIdentifier(target)]
        var stack = [target]
        while let current = stack.popLast() {
            if current === start {
                var path = [current]
                while let next = parent[ObjectIdentifier(path[path.count - 1])] { path.append(next) }
                return path
            }
            for (dependent, _) in current.entry.dependents
            where dependent.entry.status != .outside && visited.insert(ObjectIdentifier(dependent)).inserted {
                parent[ObjectIdentifier(dependent)] = current
                stack.append(dependent)
            }
        }
        return nil
    }
}
