import Boilerplate
import BoilerplateServiceLifecycle
import Foundation
import Logging
import ServiceLifecycle
import Testing

/// Records what happens, in order, across services.
actor Journal {
    var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }

    /// Waits until `entry` is recorded, polling at most 2 000 times 5 ms apart (a bound on
    /// polls, not wall time, so a busy machine delays the test instead of failing it).
    func waitFor(_ entry: String) async throws {
        for _ in 0..<2_000 {
            if entries.contains(entry) { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("'\(entry)' never came: \(entries)")
        throw CancellationError()
    }
}

/// A kit service that runs until cancelled; its stop may hang.
final class Worker: AppService {
    let name: String
    let journal: Journal
    let stopHangs: Bool
    init(_ name: String, journal: Journal, stopHangs: Bool = false) {
        self.name = name
        self.journal = journal
        self.stopHangs = stopHangs
    }
    func start(options: [String: any Sendable]) async throws { await journal.add("start \(name)") }
    func run() async throws {
        await journal.add("run \(name)")
        try? await Task.sleep(for: .seconds(3600))
    }
    func stop() async throws {
        await journal.add("stop \(name)")
        if stopHangs { await Hang.forever() }
    }
}

/// A wait that neither returns nor notices cancellation, without using a thread or the CPU:
/// a stop that hangs.
enum Hang {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var held: [CheckedContinuation<Void, Never>] = []
    static func forever() async {
        await withCheckedContinuation { continuation in lock.withLock { held.append(continuation) } }
    }
}

/// A swift-service-lifecycle service — `Service` needs no module prefix beside `import Boilerplate`.
struct Listener: Service {
    let journal: Journal
    func run() async throws {
        await journal.add("listen")
        do {
            try await gracefulShutdown()
            await journal.add("graceful")
        } catch {
            await journal.add("cancelled")
        }
    }
}

let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

@Suite("BoilerplateServiceLifecycle: registries in service groups, lifecycle services in registries")
struct ServiceGroupBridgeTests {
    @Test("a registry in a ServiceGroup starts its services and stops them in reverse on graceful shutdown")
    func registryInGroup() async throws {
        let journal = Journal()
        let services = ServiceRegistry()
        services.register("a") { Worker("a", journal: journal) }
        services.register("b", dependsOn: ["a"]) { Worker("b", journal: journal) }
        let group = ServiceGroup(services: [services.lifecycleService(stopTimeout: .seconds(5))], logger: quiet)
        let running = Task { try await group.run() }
        try await journal.waitFor("run b")
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(
            await journal.entries.filter { $0.hasPrefix("start ") || $0.hasPrefix("stop ") } == [
                "start a", "start b", "stop b", "stop a",
            ])
        #expect(await services.running.isEmpty)
    }

    @Test("a shutdown that leaves a service running past its timeout fails the group's run with the report")
    func incompleteShutdown() async throws {
        let journal = Journal()
        let services = ServiceRegistry()
        services.register("a") { Worker("a", journal: journal) }
        services.register("b", dependsOn: ["a"], stopTimeout: .milliseconds(200)) {
            Worker("b", journal: journal, stopHangs: true)
        }
        let group = ServiceGroup(services: [services.lifecycleService()], logger: quiet)
        let running = Task { try await group.run() }
        try await journal.waitFor("run b")
        await group.triggerGracefulShutdown()
        await #expect {
            try await running.value
        } throws: { error in
            guard case .shutdownIncomplete(let report)? = error as? ServiceError else { return false }
            return report.timedOut == ["b"] && report.stopped == ["a"]
        }
    }

    @Test("a lifecycle Service registered in a registry runs after its dependency and shuts down gracefully")
    func lifecycleServiceInRegistry() async throws {
        let journal = Journal()
        let services = ServiceRegistry()
        services.register("db") { Worker("db", journal: journal) }
        services.register("http", dependsOn: ["db"], logger: quiet) { Listener(journal: journal) }
        let running = Task { try await services.run(signals: []) }
        try await journal.waitFor("listen")
        services.requestShutdown()
        let report = try await running.value
        #expect(report.isClean)
        #expect(report.stopped == ["http", "db"])
        let entries = await journal.entries
        #expect(entries.first == "start db")
        // Graceful, not cancelled, and over before its dependency is stopped.
        #expect(entries.suffix(2) == ["graceful", "stop db"])
    }

    @Test("a lifecycle Service stopped before it ever ran is not run afterwards")
    func stoppedBeforeRun() async throws {
        let journal = Journal()
        let services = ServiceRegistry()
        services.register("http", logger: quiet) { Listener(journal: journal) }
        try await services.start("http")
        try await services.stop("http")
        #expect(await journal.entries.isEmpty)
        #expect(await services.running.isEmpty)
    }
}
