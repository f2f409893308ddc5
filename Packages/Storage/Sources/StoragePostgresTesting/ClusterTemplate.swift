import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh cluster with the test database in it, made once per process and copied for each
/// ``PostgresTestServer``.
///
/// Why: `initdb` costs about 0.7 s of CPU and `createdb` another process and a server round, for
/// every server. A test run starts dozens of servers at once on two cores, and that load starved
/// the tests' own loopback servers for seconds (a client's 5 s connect timed out in CI). A copy of
/// a cleanly stopped cluster costs under a tenth of that and is the same cluster: a server started
/// on it does no recovery and finds the database `boiler` empty.
///
/// The template lives in `/tmp/boiler-pg-template-<pid>-<random>` and is deleted when the process
/// exits normally. One left by a process that was killed is deleted by the next process that
/// makes a template, once its process id no longer runs.
actor ClusterTemplate {
    /// The template of this process.
    static let shared = ClusterTemplate()

    /// Templates made or being made, by the folder of the programs that make them.
    private var making: [String: Task<URL, any Error>] = [:]

    /// The `data` folder of a stopped cluster made by the programs in `binaries`, owned by
    /// `systemUser` when given; made on the first call, and again after a call that failed.
    /// - Throws: ``PostgresTestServerError/failed(step:output:)`` naming the step that failed.
    func data(binaries: URL, systemUser: String?) async throws -> URL {
        let task: Task<URL, any Error>
        if let existing = making[binaries.path] {
            task = existing
        } else {
            // A task of its own: a test cancelled while the template is made must not leave the
            // other tests waiting on a half-made one.
            task = Task { try await Self.make(binaries: binaries, systemUser: systemUser) }
            making[binaries.path] = task
        }
        do {
            return try await task.value
        } catch {
            if making[binaries.path] == task { making[binaries.path] = nil }
            throw error
        }
    }

    /// Copies the template's `data` folder to `destination` (which must not exist), keeping its
    /// owner and modes: PostgreSQL refuses a data folder others can read.
    static func copy(_ template: URL, to destination: URL) async throws {
        try await PostgresTestServer.run("/bin/cp", ["-a", template.path, destination.path])
    }

    private static func make(binaries: URL, systemUser: String?) async throws -> URL {
        removeAbandoned()
        let folder = URL(fileURLWithPath: "/tmp")
            .appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        Cleanup.shared.remove(atExit: folder)
        do {
            if let systemUser {
                try await PostgresTestServer.ensureSystemUser(systemUser)
                try await PostgresTestServer.run("/bin/chown", [systemUser, folder.path])
            }
            let data = folder.appendingPathComponent("data")
            try await PostgresTestServer.run(
                binaries: binaries, as: systemUser, "initdb",
                [
                    "-D", data.path, "-U", PostgresTestServer.user, "--auth=trust", "-E", "UTF8", "--locale=C",
                    "--no-sync", "--no-instructions",
                ])
            // Started on its unix socket only (the port number only names the socket): no TCP
            // port is taken, so no other server can be mistaken for this one.
            let server = ServerProcess()
            do {
                try await PostgresTestServer.launch(
                    server, binaries: binaries, as: systemUser, data: data, folder: folder, port: 5432,
                    options: ["-c", "listen_addresses="])
                try await PostgresTestServer.run(
                    binaries: binaries, as: systemUser, "createdb",
                    ["-h", folder.path, "-p", "5432", "-U", PostgresTestServer.user, PostgresTestServer.database])
            } catch {
                await server.stop(with: SIGQUIT)
                throw error
            }
            // A fast shutdown (SIGINT) is a clean one: it writes a checkpoint, so a copy starts
            // without recovery. One that had to be killed left a cluster not worth copying.
            guard await server.stop(with: SIGINT) else {
                throw PostgresTestServerError.failed(
                    step: "postgres (the template's shutdown)", output: "it did not stop within 20 s")
            }
            return data
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// The start of every template folder's name; the process id that made it follows.
    static let prefix = "boiler-pg-template-"

    /// Deletes the template folders of processes that no longer run (killed before they could
    /// delete their own). A folder whose process id runs again under another program is kept:
    /// the mistake costs disk, never a running test's template.
    static func removeAbandoned() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0 else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(atPath: "/tmp/\(name)")
            }
        }
    }
}

/// Folders deleted when the process exits normally (`exit`, the end of `main`), as the test
/// runner does after its last test.
final class Cleanup: @unchecked Sendable {
    // @unchecked: `folders` is only touched under `lock`.
    static let shared = Cleanup()
    private let lock = NSLock()
    private var folders: [URL] = []
    private var registered = false

    /// Deletes `folder` when the process exits.
    func remove(atExit folder: URL) {
        let register = lock.withLock { () -> Bool in
            folders.append(folder)
            defer { registered = true }
            return !registered
        }
        if register { atexit { Cleanup.shared.removeAll() } }
    }

    private func removeAll() {
        for folder in lock.withLock({ folders }) { try? FileManager.default.removeItem(at: folder) }
    }
}
