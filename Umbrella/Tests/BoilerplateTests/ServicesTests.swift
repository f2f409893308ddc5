import Foundation
import Testing

@testable import Boilerplate

/// Records lifecycle calls across services, in order.
actor ServiceJournal {
    var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
}

final class RecordingService: AppService {
    let name: String
    let journal: ServiceJournal
    let failStart: Bool
    init(_ name: String, journal: ServiceJournal, failStart: Bool = false) {
        self.name = name
        self.journal = journal
        self.failStart = failStart
    }
    func start(options: [String: any Sendable]) async throws {
        let suffix = options.keys.sorted().joined(separator: ",")
        await journal.add("start \(name)\(suffix.isEmpty ? "" : " [\(suffix)]")")
        await Task.yield()
        if failStart { throw RecordingServiceError.refused }
    }
    func stop() async throws { await journal.add("stop \(name)") }
}

enum RecordingServiceError: Error { case refused }

@Suite("Services")
struct ServicesTests {
    func registry(_ journal: ServiceJournal) -> ServiceRegistry {
        let services = ServiceRegistry()
        services.register("net_state") { RecordingService("net_state", journal: journal) }
        services.register("sync", dependsOn: ["net_state"]) { RecordingService("sync", journal: journal) }
        services.register("ui", dependsOn: ["sync"]) { RecordingService("ui", journal: journal) }
        return services
    }

    @Test("dependencies start first; only the service asked for gets the options")
    func startOrder() async throws {
        let journal = ServiceJournal()
        let services = registry(journal)
        try await services.start("ui", options: ["verbose": true])
        #expect(await journal.entries == ["start net_state", "start sync", "start ui [verbose]"])
        #expect(await services.running == ["net_state", "sync", "ui"])
    }

    @Test("stopping a service stops its running dependents first")
    func stopOrder() async throws {
        let journal = ServiceJournal()
        let services = registry(journal)
        try await services.start("ui")
        try await services.stop("net_state")
        #expect(await journal.entries.suffix(3) == ["stop ui", "stop sync", "stop net_state"])
        #expect(await services.running.isEmpty)
    }

    @Test("starting a running service is a no-op, even when two starts race")
    func startOnce() async throws {
        let journal = ServiceJournal()
        let services = registry(journal)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { try await services.start("net_state") } }
            try await group.waitForAll()
        }
        #expect(await journal.entries == ["start net_state"])
    }

    @Test("a stopped service is made afresh by its factory on the next start")
    func restart() async throws {
        let journal = ServiceJournal()
        let services = registry(journal)
        try await services.start("net_state")
        let first = try #require(await services.service("net_state", as: RecordingService.self))
        try await services.stop("net_state")
        try await services.stop("net_state")
        try await services.start("net_state")
        let second = try #require(await services.service("net_state", as: RecordingService.self))
        #expect(first !== second)
        #expect(await journal.entries == ["start net_state", "stop net_state", "start net_state"])
    }

    @Test("unknown names are typed errors listing the registered ones")
    func unknownName() async {
        let services = registry(ServiceJournal())
        await #expect {
            try await services.start("gps")
        } throws: { error in
            (error as? ServiceError)?.message == "No service is registered as 'gps'; registered: net_state, sync, ui."
        }
        await #expect(throws: ServiceError.self) { try await services.stop("gps") }
    }

    @Test("a dependency cycle is reported before anything starts")
    func cycle() async {
        let journal = ServiceJournal()
        let services = ServiceRegistry()
        services.register("a", dependsOn: ["b"]) { RecordingService("a", journal: journal) }
        services.register("b", dependsOn: ["a"]) { RecordingService("b", journal: journal) }
        await #expect {
            try await services.start("a")
        } throws: { error in
            (error as? ServiceError)?.message == "Services depend on each other in a circle: a → b → a."
        }
        #expect(await journal.entries.isEmpty)
    }

    @Test("a missing dependency names the service that needs it")
    func missingDependency() async {
        let services = ServiceRegistry()
        services.register("sync", dependsOn: ["net_state"]) { RecordingService("sync", journal: ServiceJournal()) }
        await #expect {
            try await services.start("sync")
        } throws: { error in
            (error as? ServiceError)?.message == "Service 'sync' depends on 'net_state', which is not registered."
        }
    }

    @Test("a service whose start fails is not running and its dependent does not start")
    func failedStart() async {
        let journal = ServiceJournal()
        let services = ServiceRegistry()
        services.register("net_state") { RecordingService("net_state", journal: journal, failStart: true) }
        services.register("sync", dependsOn: ["net_state"]) { RecordingService("sync", journal: journal) }
        await #expect {
            try await services.start("sync")
        } throws: { error in
            guard case .startFailed("net_state", _)? = error as? ServiceError else { return false }
            return true
        }
        #expect(await services.isRunning("net_state") == false)
        #expect(await journal.entries == ["start net_state"])
    }

    @Test("services registered by type start and stop by type")
    func byType() async throws {
        let journal = ServiceJournal()
        let services = ServiceRegistry()
        services.register(RecordingService.self) { RecordingService("typed", journal: journal) }
        try await services.start(RecordingService.self)
        #expect(await services.service(RecordingService.self)?.name == "typed")
        try await services.stopAll()
        #expect(await journal.entries == ["start typed", "stop typed"])
    }
}
