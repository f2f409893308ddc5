import Foundation
import Testing
import _KitSupport

@testable import Boilerplate

/// A service whose run and stop are scripted, recording what happens in a journal.
final class ScriptedService: AppService {
    enum RunBehaviour: Sendable {
        /// Runs until cancelled.
        case untilCancelled
        /// Returns at once.
        case returns
        /// Throws after a short while.
        case fails
    }
    let name: String
    let journal: ServiceJournal
    let run: RunBehaviour
    let stopHangs: Bool
    let startFails: Bool
    init(
        _ name: String, journal: ServiceJournal, run: RunBehaviour = .untilCancelled, stopHangs: Bool = false,
        startFails: Bool = false
    ) {
        self.name = name
        self.journal = journal
        self.run = run
        self.stopHangs = stopHangs
        self.startFails = startFails
    }
    func start(options: [String: any Sendable]) async throws {
        await journal.add("start \(name)")
        if startFails { throw RecordingServiceError.refused }
    }
    func run() async throws {
        await journal.add("run \(name)")
        switch run {
        case .untilCancelled:
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                await journal.add("cancelled \(name)")
                throw error
            }
        case .returns:
            return
        case .fails:
            try await Task.sleep(for: .milliseconds(50))
            throw RecordingServiceError.refused
        }
    }
    func stop() async throws {
        await journal.add("stop \(name)")
        if stopHangs { await Hang.forever() }
    }
}

/// A wait that neither returns nor notices cancellation, without using a thread or the CPU:
/// a stop that hangs.
enum Hang {
    private static let held = Locked<[CheckedContinuation<Void, Never>]>([])
    static func forever() async {
        await withCheckedContinuation { continuation in held.withLock { $0.append(continuation) } }
    }
}

@Suite("Running services")
struct ServiceRunTests {
    func registry(_ journal: ServiceJournal, b: ScriptedService.RunBehaviour = .untilCancelled) -> ServiceRegistry {
        let services = ServiceRegistry()
        // Registered out of order: run starts them by dependency, not by name or registration.
        services.register("c", dependsOn: ["b"]) { ScriptedService("c", journal: journal) }
        services.register("a") { ScriptedService("a", journal: journal) }
        services.register("b", dependsOn: ["a"]) { ScriptedService("b", journal: journal, run: b) }
        return services
    }

    /// Waits until the journal holds `entry`, polling at most 2 000 times 5 ms apart.
    ///
    /// The bound counts polls, not wall time: when other suites keep the machine busy, each poll
    /// comes later, but the services are scheduled between polls too, so only a hang fails it.
    func waitFor(_ entry: String, in journal: ServiceJournal) async throws {
        for _ in 0..<2_000 {
            if await journal.entries.contains(entry) { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("'\(entry)' never came: \(await journal.entries)")
        throw CancellationError()
    }

    @Test("run starts every service in dependency order; requestShutdown stops them in reverse")
    func runAndRequestShutdown() async throws {
        let journal = ServiceJournal()
        let services = registry(journal)
        let running = Task { try await services.run(signals: []) }
        try await waitFor("run c", in: journal)
        #expect(await services.running == ["a", "b", "c"])
        services.requestShutdown()
        let report = try await running.value
        #expect(report.trigger == .requested)
        #expect(report.stopped == ["c", "b", "a"])
        #expect(report.isClean)
        let entries = await journal.entries
        #expect(entries.prefix(3) == ["start a", "start b", "start c"])
        // Stop first, then the run is cancelled, before the next service is stopped.
        #expect(entries.suffix(6) == ["stop c", "cancelled c", "stop b", "cancelled b", "stop a", "cancelled a"])
        #expect(await services.running.isEmpty)
    }

    @Test("a shutdown requested before run begins stops the services as soon as they started")
    func shutdownBeforeRun() async throws {
        let journal = ServiceJournal()
        let services = registry(journal)
        services.requestShutdown()
        let report = try await services.run(signals: [])
        #expect(report.trigger == .requested)
        #expect(report.stopped == ["c", "b", "a"])
        // The request is used up: the next run runs until asked again.
        let again = Task { try await services.run(signals: []) }
        for _ in 0..<2_000 where await services.running != ["a", "b", "c"] {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(await services.running == ["a", "b", "c"])
        services.requestShutdown()
        #expect(try await again.value.stopped == ["c", "b", "a"])
    }

    @Test("services started before run are kept, not started twice, and run too")
    func startedBeforeRun() async throws {
        let journal = ServiceJournal()
        let services = registry(journal)
        try await services.start("b")
        let running = Task { try await services.run(signals: []) }
        try await waitFor("run b", in: journal)
        try await waitFor("run c", in: journal)
        services.requestShutdown()
        #expect(try await running.value.stopped == ["c", "b", "a"])
        #expect(await journal.entries.filter { $0.hasPrefix("start ") } == ["start a", "start b", "start c"])
    }

    @Test("cancelling the task that runs the services shuts them down")
    func cancellation() async throws {
        let journal = ServiceJournal()
        let services = registry(journal)
        let running = Task { try await services.run(signals: []) }
        try await waitFor("run c", in: journal)
        running.cancel()
        let report = try await running.value
        #expect(report.trigger == .cancelled)
        #expect(report.stopped == ["c", "b", "a"])
        #expect(report.isClean)
    }

    @Test("a run that throws shuts everything down and is reported")
    func failingRun() async throws {
        let journal = ServiceJournal()
        let services = registry(journal, b: .fails)
        let report = try await services.run(signals: [])
        #expect(report.trigger == .serviceFailed("b"))
        #expect(report.stopped == ["c", "b", "a"])
        #expect(!report.isClean)
        guard case .runFailed("b", _)? = report.errors.first, report.errors.count == 1 else {
            Issue.record("expected b's run failure, got \(report.errors)")
            return
        }
        #expect(report.summary.contains("Service 'b' failed while running"))
    }

    @Test("a run that returns leaves its service started until the shutdown")
    func returningRun() async throws {
        let journal = ServiceJournal()
        let services = registry(journal, b: .returns)
        let running = Task { try await services.run(signals: []) }
        try await waitFor("run c", in: journal)
        try await Task.sleep(for: .milliseconds(50))
        #expect(await services.isRunning("b"))
        services.requestShutdown()
        let report = try await running.value
        #expect(report.stopped == ["c", "b", "a"])
        #expect(report.isClean)
    }

    @Test("a service that hangs in stop is reported after its own timeout; the others still stop")
    func hangingStop() async throws {
        let journal = ServiceJournal()
        let services = ServiceRegistry()
        services.register("a") { ScriptedService("a", journal: journal) }
        services.register("b", dependsOn: ["a"], stopTimeout: .milliseconds(300)) {
            ScriptedService("b", journal: journal, stopHangs: true)
        }
        services.register("c", dependsOn: ["b"]) { ScriptedService("c", journal: journal) }
        let running = Task { try await services.run(stopTimeout: .seconds(30), signals: []) }
        try await waitFor("run c", in: journal)
        let began = ContinuousClock.now
        services.requestShutdown()
        let report = try await running.value
        let elapsed = ContinuousClock.now - began
        #expect(report.stopped == ["c", "a"])
        #expect(report.timedOut == ["b"])
        #expect(!report.isClean)
        #expect(report.summary.contains("Did not stop in time: b."))
        // b's own 0.5 s timeout ended the wait, not the run's 30 s one (the margin is for a busy machine).
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(25), "took \(elapsed)")
        // b's run is cancelled all the same, and the registry no longer counts b as running.
        try await waitFor("cancelled b", in: journal)
        #expect(await services.running.isEmpty)
    }

    @Test("a failed start stops the services already started and throws")
    func failedStart() async throws {
        let journal = ServiceJournal()
        let log = CollectedLog()
        let services = ServiceRegistry(log: log.sink())
        services.register("a") { ScriptedService("a", journal: journal) }
        services.register("b", dependsOn: ["a"]) { ScriptedService("b", journal: journal, startFails: true) }
        await #expect {
            _ = try await services.run(signals: [])
        } throws: { error in
            guard case .startFailed("b", _)? = error as? ServiceError else { return false }
            return true
        }
        #expect(await journal.entries == ["start a", "start b", "stop a"])
        #expect(await services.running.isEmpty)
        #expect(log.entries.map(\.message).contains("Shutting down 1 service(s) (service 'b' failed)"))
    }

    @Test("run refuses to run twice at once")
    func alreadyRunning() async throws {
        let journal = ServiceJournal()
        let services = registry(journal)
        let running = Task { try await services.run(signals: []) }
        try await waitFor("run c", in: journal)
        await #expect {
            _ = try await services.run(signals: [])
        } throws: { error in
            guard case .alreadyRunning? = error as? ServiceError else { return false }
            return true
        }
        services.requestShutdown()
        #expect(try await running.value.isClean)
    }

    @Test("stopping one service while they run also cancels its run")
    func stopWhileRunning() async throws {
        let journal = ServiceJournal()
        let services = registry(journal)
        let running = Task { try await services.run(signals: []) }
        try await waitFor("run c", in: journal)
        try await services.stop("c")
        #expect(await journal.entries.suffix(2) == ["stop c", "cancelled c"])
        services.requestShutdown()
        #expect(try await running.value.stopped == ["b", "a"])
    }
}
