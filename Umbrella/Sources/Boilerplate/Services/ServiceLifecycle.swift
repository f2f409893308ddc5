/// The running services, changed one lifecycle call at a time.
///
/// An actor alone is not enough: it is re-entered while a service's `start` is awaited, so a
/// second `start` of the same service would see it not yet running. Every lifecycle call is
/// therefore chained behind the previous one.
actor ServiceLifecycle {
    private var tail: Task<Void, Never>?
    private var instances: [String: any Service] = [:]
    private(set) var startedOrder: [String] = []
    /// The dependencies each running service was started with.
    private var dependenciesOf: [String: [String]] = [:]

    func isRunning(_ name: String) -> Bool { instances[name] != nil }

    func instance(_ name: String) -> (any Service)? { instances[name] }

    /// Runs `operation` after every lifecycle call made before it has finished.
    private func serialized(
        _ operation: @escaping @Sendable (isolated ServiceLifecycle) async throws -> Void
    )
        async throws
    {
        let previous = tail
        let task = Task {
            await previous?.value
            try await operation(self)
        }
        tail = Task { _ = try? await task.value }
        try await task.value
    }

    /// Starts each service of `order` that is not running, in order.
    func start(
        _ order: [String], options: [String: any Sendable], target: String,
        registrations: [String: ServiceRegistry.Registration]
    ) async throws {
        try await serialized { lifecycle in
            try await lifecycle.startNow(order, options: options, target: target, registrations: registrations)
        }
    }

    private func startNow(
        _ order: [String], options: [String: any Sendable], target: String,
        registrations: [String: ServiceRegistry.Registration]
    ) async throws {
        for name in order where instances[name] == nil {
            guard let registration = registrations[name] else { continue }
            let service = registration.factory()
            do {
                // Only the service asked for gets the options; dependencies start with none.
                try await service.start(options: name == target ? options : [:])
            } catch {
                throw ServiceError.startFailed(name, underlying: error)
            }
            instances[name] = service
            startedOrder.append(name)
            dependenciesOf[name] = registration.dependencies
        }
    }

    /// Stops the running dependents of `name` (latest started first), then `name`.
    func stop(_ name: String) async throws {
        try await serialized { lifecycle in try await lifecycle.stopNow(name) }
    }

    private func stopNow(_ name: String) async throws {
        var failures: [ServiceError] = []
        for dependent in dependents(of: name).reversed() { await stopOne(dependent, into: &failures) }
        await stopOne(name, into: &failures)
        if let first = failures.first { throw first }
    }

    func stopAll() async throws {
        try await serialized { lifecycle in try await lifecycle.stopAllNow() }
    }

    private func stopAllNow() async throws {
        var failures: [ServiceError] = []
        for name in startedOrder.reversed() { await stopOne(name, into: &failures) }
        if let first = failures.first { throw first }
    }

    /// Running services that depend on `name`, directly or not, in start order.
    private func dependents(of name: String) -> [String] {
        var found: Set<String> = []
        var changed = true
        while changed {
            changed = false
            for (service, dependencies) in dependenciesOf where !found.contains(service) {
                if dependencies.contains(name) || dependencies.contains(where: found.contains) {
                    found.insert(service)
                    changed = true
                }
            }
        }
        return startedOrder.filter(found.contains)
    }

    private func stopOne(_ name: String, into failures: inout [ServiceError]) async {
        guard let service = instances.removeValue(forKey: name) else { return }
        startedOrder.removeAll { $0 == name }
        dependenciesOf[name] = nil
        do {
            try await service.stop()
        } catch {
            failures.append(.stopFailed(name, underlying: error))
        }
    }
}
