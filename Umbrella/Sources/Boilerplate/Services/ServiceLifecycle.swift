import Errors
import _KitSupport

/// The running services, changed one lifecycle call at a time.
///
/// An actor alone is not enough: it is re-entered while a service's `start` is awaited, so a
/// second `start` of the same service would see it not yet running. Every lifecycle call is
/// therefore chained behind the previous one.
actor ServiceLifecycle {
    private let log: LogSink
    private var tail: Task<Void, Never>?
    private var instances: [String: any AppService] = [:]
    private(set) var startedOrder: [String] = []
    /// The dependencies each running service was started with.
    private var dependenciesOf: [String: [String]] = [:]
    /// The tasks running services' `run`, while ``ServiceRegistry/run(stopTimeout:signals:)``
    /// runs them; each ends with the error `run` threw, if any (cancellation aside).
    private var runs: [String: Task<(any Error)?, Never>] = [:]

    init(log: LogSink) { self.log = log }

    private func note(_ level: LogSink.Level, _ message: @autoclosure () -> String, service: String) {
        log.log(level, message(), metadata: ["service": service], source: "Services")
    }

    func isRunning(_ name: String) -> Bool { instances[name] != nil }

    func instance(_ name: String) -> (any AppService)? { instances[name] }

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
                note(.error, "Service '\(name)' failed to start: \(error.userMessage)", service: name)
                throw ServiceError.startFailed(name, underlying: error)
            }
            note(.info, "Service '\(name)' started", service: name)
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
        var errors: [ServiceError] = []
        do {
            try await service.stop()
        } catch {
            errors.append(.stopFailed(name, underlying: error))
        }
        if let run = runs.removeValue(forKey: name) {
            run.cancel()
            if let error = await run.value { errors.append(.runFailed(name, underlying: error)) }
        }
        noteStopped(name, errors: errors)
        failures += errors
    }

    private func noteStopped(_ name: String, errors: [ServiceError]) {
        if errors.isEmpty { note(.info, "Service '\(name)' stopped", service: name) }
        for error in errors { note(.error, error.message, service: name) }
    }

    /// Starts each running service's `run` in a task of its own; `failed` is called with the
    /// name of a service whose `run` threw (cancellation aside) before it was stopped.
    func beginRuns(failed: @escaping @Sendable (String) -> Void) async throws {
        try await serialized { lifecycle in lifecycle.beginRunsNow(failed: failed) }
    }

    private func beginRunsNow(failed: @escaping @Sendable (String) -> Void) {
        for name in startedOrder where runs[name] == nil {
            guard let service = instances[name] else { continue }
            runs[name] = Task {
                do {
                    try await service.run()
                    return nil
                } catch {
                    // A run ended by its cancellation (the registry stopping it) did not fail.
                    if Task.isCancelled || error is CancellationError { return nil }
                    self.log.log(
                        .error, "Service '\(name)' failed while running: \(error.userMessage)",
                        metadata: ["service": name], source: "Services")
                    failed(name)
                    return error
                }
            }
        }
    }

    /// Stops every running service, dependents first, each within `timeout(name)`: `stop`,
    /// then its `run` is cancelled and awaited. One that overruns is given up on and the next
    /// is stopped.
    func shutdown(
        trigger: ShutdownReport.Trigger, timeout: @escaping @Sendable (String) -> Duration
    ) async -> ShutdownReport {
        let report = Locked(ShutdownReport(trigger: trigger))
        // `serialized` only throws what its operation throws; this one throws nothing.
        try? await serialized { lifecycle in
            let result = await lifecycle.shutdownNow(trigger: trigger, timeout: timeout)
            report.withLock { $0 = result }
        }
        return report.withLock { $0 }
    }

    private func shutdownNow(
        trigger: ShutdownReport.Trigger, timeout: @Sendable (String) -> Duration
    ) async -> ShutdownReport {
        var report = ShutdownReport(trigger: trigger)
        log.log(.notice, "Shutting down \(startedOrder.count) service(s) (\(trigger))", source: "Services")
        for name in startedOrder.reversed() {
            guard let service = instances.removeValue(forKey: name) else { continue }
            startedOrder.removeAll { $0 == name }
            dependenciesOf[name] = nil
            let run = runs.removeValue(forKey: name)
            let stopping = Task { () -> [ServiceError] in
                var errors: [ServiceError] = []
                do {
                    try await service.stop()
                } catch {
                    errors.append(.stopFailed(name, underlying: error))
                }
                run?.cancel()
                if let error = await run?.value { errors.append(.runFailed(name, underlying: error)) }
                return errors
            }
            let limit = timeout(name)
            if let errors = await Deadline.value(of: stopping, within: limit) {
                report.stopped.append(name)
                report.errors += errors
                noteStopped(name, errors: errors)
            } else {
                // Left to finish on its own: a service stuck in `stop` cannot be forced.
                stopping.cancel()
                run?.cancel()
                report.timedOut.append(name)
                note(.error, "Service '\(name)' did not stop within \(limit)", service: name)
            }
        }
        log.log(
            report.isClean ? .notice : .error, report.summary,
            metadata: report.timedOut.isEmpty ? [:] : ["timedOut": report.timedOut.joined(separator: ",")],
            source: "Services")
        return report
    }
}
