import Foundation

extension ServiceRegistry {
    /// Starts every registered service, runs them, and stops them all on `SIGTERM`/`SIGINT`,
    /// on ``requestShutdown()``, when a service's ``AppService/run()`` throws, or when the
    /// calling task is cancelled: a server's `main`.
    ///
    /// ```swift
    /// let report = try await services.run(stopTimeout: .seconds(10))
    /// exit(report.isClean ? 0 : 1)
    /// ```
    ///
    /// Services start in dependency order (ties in name order); services already running are
    /// kept. Then each one's ``AppService/run()`` runs in a task of its own. On shutdown the
    /// services are stopped in reverse order, dependents first: ``AppService/stop()``, then its
    /// `run` is cancelled and awaited, all within the service's timeout (the one it was
    /// registered with, or `stopTimeout`). A service that overruns is named in
    /// ``ShutdownReport/timedOut`` and the next one is stopped all the same.
    ///
    /// Signals are trapped through Dispatch signal sources from before the first service starts
    /// until the last one has stopped, so a signal during startup shuts down once startup is
    /// over. Afterwards, on Apple platforms, the signals' earlier handlers are restored; on Linux
    /// Dispatch keeps its own handler installed, so a later signal no longer ends the process by
    /// itself — a server exits when `run` returns.
    /// - Parameters:
    ///   - stopTimeout: How long each service may take to stop.
    ///   - signals: The signals that start a shutdown; `[]` traps none (a `ServiceGroup` that
    ///     handles signals itself, or a test).
    /// - Returns: What the shutdown did; `isClean` is false when a service timed out or threw.
    /// - Throws: ``ServiceError/startFailed(_:underlying:)`` (the services already started are
    ///   stopped first), ``ServiceError/alreadyRunning``, or a registration error
    ///   (unknown dependency, cycle).
    public func run(
        stopTimeout: Duration = .seconds(10), signals: [Int32] = [SIGTERM, SIGINT]
    ) async throws -> ShutdownReport {
        let order = try startOrderForAll()
        let trigger = ShutdownTrigger()
        let claimed = runState.withLock { state in
            guard state.trigger == nil else { return false }
            state.trigger = trigger
            if state.shutdownPending { trigger.fire(.requested) }
            state.shutdownPending = false
            return true
        }
        guard claimed else { throw ServiceError.alreadyRunning }
        defer { runState.withLock { $0.trigger = nil } }
        let trap = await SignalTrap(signals) { number in trigger.fire(.signal(number)) }
        defer { trap.cancel() }
        let all = allRegistrations
        let timeout: @Sendable (String) -> Duration = { name in all[name]?.stopTimeout ?? stopTimeout }

        do {
            try await lifecycle.start(order, options: [:], target: "", registrations: all)
        } catch {
            var failed = ""
            if case .startFailed(let name, _)? = error as? ServiceError { failed = name }
            _ = await lifecycle.shutdown(trigger: .serviceFailed(failed), timeout: timeout)
            throw error
        }
        try await lifecycle.beginRuns { name in trigger.fire(.serviceFailed(name)) }
        let reason = await withTaskCancellationHandler {
            await trigger.wait()
        } onCancel: {
            trigger.fire(.cancelled)
        }
        return await lifecycle.shutdown(trigger: reason, timeout: timeout)
    }

    /// Starts the shutdown of the ``run(stopTimeout:signals:)`` in progress, as `SIGTERM` would;
    /// it returns once every service has stopped or timed out. Called when no `run` is in
    /// progress, the next `run` stops as soon as its services have started.
    public func requestShutdown() {
        let trigger = runState.withLock { state -> ShutdownTrigger? in
            if state.trigger == nil { state.shutdownPending = true }
            return state.trigger
        }
        trigger?.fire(.requested)
    }
}
