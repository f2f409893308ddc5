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
        let id = ObjectIdentifier(operation.lifecycle)
        let dependencyID = ObjectIdentifier(edge.operation.lifecycle)
        let outcome = state.withLock { state -> Result<Void, OperationRunnerError> in
            guard let node = state.nodes[id], !node.isRunning else {
                return .failure(.notPending(operation: operation.lifecycle.name))
            }
            if state.nodes[dependencyID] != nil {
                if let path = Self.path(from: dependencyID, to: id, in: state.nodes) {
                    let names = path.compactMap { state.nodes[$0]?.operation.lifecycle.name }
                    return .failure(.dependencyCycle(path: [operation.lifecycle.name] + names))
                }
                node.dependencies.insert(dependencyID)
            } else if adopt(edge.operation, into: &state) {
                node.dependencies.insert(dependencyID)
            }
            node.waitingOn += 1
            return .success(())
        }
        if case .success = outcome {
            watch([Edge(lifecycle: edge.operation.lifecycle, policy: edge.policy)], for: id)
        }
        return outcome
    }

    /// The chain of dependencies leading from `start` to `target`, both included; nil if none.
    static func path(
        from start: ObjectIdentifier, to target: ObjectIdentifier, in nodes: [ObjectIdentifier: Node]
    ) -> [ObjectIdentifier]? {
        var parent: [ObjectIdentifier: ObjectIdentifier] = [:]
        var visited: Set<ObjectIdentifier> = [start]
        var stack = [start]
        while let current = stack.popLast() {
            if current == target {
                var path = [current]
                while let previous = parent[path[path.count - 1]] { path.append(previous) }
                return path.reversed()
            }
            for next in nodes[current]?.dependencies ?? [] where visited.insert(next).inserted {
                parent[next] = current
                stack.append(next)
            }
        }
        return nil
    }
}
