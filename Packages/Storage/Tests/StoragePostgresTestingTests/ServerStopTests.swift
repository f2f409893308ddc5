import Foundation
import Testing

@testable import StoragePostgresTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Stopping a server ends its process whatever state it is in: the stop signals the process
/// itself, and a process that ignores the signal is killed after the grace period. A stop that
/// went through `pg_ctl` and the pid file waited forever on a server stopped before it had one.
@Suite("A test server's stop always ends its process")
struct ServerStopTests {
    /// A watched child running `script` in `/bin/sh`, with its output discarded.
    func watched(_ script: String) throws -> (ServerProcess, ChildProcess) {
        let null = open("/dev/null", O_WRONLY)
        defer { close(null) }
        let child = try ChildProcess.spawn("/bin/sh", ["-c", script], output: null)
        let process = ServerProcess()
        process.watch(child)
        return (process, child)
    }

    @Test("a process that ends on the signal is stopped within the grace period, and is reaped")
    func endsOnTheSignal() async throws {
        let (process, child) = try watched("exec sleep 60")
        #expect(process.isRunning)
        #expect(await process.stop(with: SIGQUIT, grace: .seconds(60)))
        #expect(!process.isRunning)
        // Reaped: the process id names no process, not even a zombie.
        #expect(kill(child.pid, 0) == -1 && errno == ESRCH)
    }

    @Test("a process that ignores the signal is killed after the grace period", .timeLimit(.minutes(1)))
    func ignoresTheSignal() async throws {
        // `exec` keeps the ignored disposition: the sleeping program itself ignores SIGQUIT.
        let (process, child) = try watched("trap '' QUIT; exec sleep 60")
        // Let the shell reach its `exec`; a SIGQUIT before the trap would end it at once.
        try await Task.sleep(for: .milliseconds(300))
        #expect(await process.stop(with: SIGQUIT, grace: .milliseconds(200)) == false)
        #expect(!process.isRunning)
        #expect(kill(child.pid, 0) == -1 && errno == ESRCH)
    }

    @Test("stopping a process never started, or one already stopped, returns at once")
    func nothingToStop() async throws {
        #expect(await ServerProcess().stop(with: SIGQUIT, grace: .seconds(60)))
        let (process, _) = try watched("exit 0")
        await process.exited()
        #expect(await process.stop(with: SIGQUIT, grace: .seconds(60)))
        #expect(!process.isRunning)
    }

    @Test(
        "a start cancelled at any moment returns, and leaves no server running without its folder",
        .timeLimit(.minutes(2)))
    func cancelledStart() async throws {
        guard PostgresTestServer.unavailableReason == nil else { return }
        for delay in [0, 5, 20, 60, 150, 400] {
            let start = Task { try await PostgresTestServer.start() }
            try await Task.sleep(for: .milliseconds(delay))
            start.cancel()
            // A start that finished before the cancel is a server like any other.
            if case .success(let server) = await start.result { await server.stop() }
            #expect(orphanedServers().isEmpty, "after a cancel at \(delay) ms: \(orphanedServers())")
        }
    }

    /// The `postgres` children of this process whose folder is gone: servers a stop deleted the
    /// folder of without ending them. (Other tests' servers keep their folders until they exit.)
    func orphanedServers() -> [String] {
        #if os(Linux)
            let me = getpid()
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap { entry -> String? in
                guard let pid = pid_t(entry),
                    let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                    let fields = stat.split(separator: ")").last?.split(separator: " "),
                    fields.count > 2, pid_t(fields[2]) == me,
                    let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
                else { return nil }
                let arguments = raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                guard arguments.first?.hasSuffix("postgres") == true,
                    let flag = arguments.firstIndex(of: "-k"), flag + 1 < arguments.count
                else { return nil }
                let folder = arguments[flag + 1]
                return FileManager.default.fileExists(atPath: folder) ? nil : "\(pid) in \(folder)"
            }
        #else
            return []
        #endif
    }
}
