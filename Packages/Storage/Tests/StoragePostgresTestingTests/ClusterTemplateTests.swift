import Foundation
import Testing

@testable import StoragePostgresTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every server of a process is a copy of one cluster made once, and template folders do not
/// pile up in /tmp: a process deletes its own at exit and those of processes that no longer run.
@Suite("The cluster template: made once per process, copied for each server, never left behind")
struct ClusterTemplateTests {
    /// This process's template folders in /tmp.
    func ownTemplates() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        return names.filter { $0.hasPrefix("\(ClusterTemplate.prefix)\(getpid())-") }
    }

    @Test("two servers of one process are copies of one template, each with its own empty database")
    func oneTemplate() async throws {
        guard PostgresTestServer.unavailableReason == nil else { return }
        let first = try await PostgresTestServer.start()
        let second = try await PostgresTestServer.start()
        #expect(ownTemplates().count == 1)
        // Copies, not links: what one server writes the other and the template never see.
        let template = try await ClusterTemplate.shared.data(binaries: first.binaries, systemUser: first.systemUser)
        #expect(template.path != first.folder.appendingPathComponent("data").path)
        let marker = first.folder.appendingPathComponent("data/marker")
        try Data("one".utf8).write(to: marker)
        #expect(!FileManager.default.fileExists(atPath: second.folder.appendingPathComponent("data/marker").path))
        #expect(!FileManager.default.fileExists(atPath: template.appendingPathComponent("marker").path))
        await first.stop()
        await second.stop()
        // The template outlives the servers: the next server copies it again.
        #expect(FileManager.default.fileExists(atPath: template.path))
    }

    @Test("a template folder of a process that no longer runs is deleted; one of a running process is kept")
    func abandoned() throws {
        // A process id that ran and was reaped: no process has it now.
        let null = open("/dev/null", O_WRONLY)
        defer { close(null) }
        let child = try ChildProcess.spawn("/bin/true", [], output: null)
        _ = child.waitForExit()
        let gone = URL(fileURLWithPath: "/tmp/\(ClusterTemplate.prefix)\(child.pid)-test\(UUID().uuidString.prefix(6))")
        // This process runs: its folder stays, whatever its name says after the id.
        let running = URL(
            fileURLWithPath: "/tmp/\(ClusterTemplate.prefix)\(getpid())-test\(UUID().uuidString.prefix(6))")
        // Names that only look like template folders are left alone.
        let unrelated = URL(fileURLWithPath: "/tmp/\(ClusterTemplate.prefix)notapid-\(UUID().uuidString.prefix(6))")
        for folder in [gone, running, unrelated] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        }
        defer { for folder in [gone, running, unrelated] { try? FileManager.default.removeItem(at: folder) } }
        ClusterTemplate.removeAbandoned()
        #expect(!FileManager.default.fileExists(atPath: gone.path))
        #expect(FileManager.default.fileExists(atPath: running.path))
        #expect(FileManager.default.fileExists(atPath: unrelated.path))
    }
}
