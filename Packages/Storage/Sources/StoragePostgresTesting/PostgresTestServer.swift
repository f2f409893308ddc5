import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real PostgreSQL server for one test: a fresh cluster in a temporary folder, `postgres` on a
/// free port of 127.0.0.1 as a child process, stopped and deleted by ``stop()``.
///
/// ```swift
/// try await PostgresTestServer.with { server in
///     let backend = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
///     defer { Task { try await backend.shutdown() } }
///     …
/// }
/// ```
///
/// The server is tuned for tests, not for data: authentication is `trust` for the user
/// `boiler`, it listens on loopback only, and `fsync` is off. It runs as a direct child rather
/// than through `pg_ctl start`, so its exit is the exit of the process this server watches, and
/// ``stop()`` signals that process itself. The programs start through `posix_spawn` rather than
/// Foundation's `Process` (see `ChildProcess`). Each cluster is a copy of one `initdb` made once
/// per test process (see `ClusterTemplate`): a copy costs a tenth of an `initdb`.
///
/// PostgreSQL refuses to run as root. When the tests run as root, the server runs as the
/// unprivileged system user `boilerpg` (created with `useradd` if missing), which owns its
/// folder. The binaries come from the folder `POSTGRES_BIN` names, else the newest
/// `/usr/lib/postgresql/*/bin` (Debian and Ubuntu), else the `PATH` (Homebrew, Postgres.app).
public final class PostgresTestServer: Sendable {
    /// The folder of the cluster, its socket and its log; deleted by ``stop()``.
    public let folder: URL
    /// The TCP port on 127.0.0.1 the server listens on.
    public let port: Int
    /// The folder of the PostgreSQL programs used.
    public let binaries: URL
    /// The user the server runs as when the tests run as root (`boilerpg`), else nil.
    public let systemUser: String?
    let server = ServerProcess()

    /// The user that owns the database and connects without a password.
    public static let user = "boiler"
    /// The database created for the test.
    public static let database = "boiler"
    /// The environment variable that, when set to anything, turns "PostgreSQL is not installed"
    /// from a skip into a failure; CI sets it, so a test that should run never passes unrun.
    public static let requiredVariable = "BOILERPLATE_REQUIRE_POSTGRES"

    /// `postgres://boiler@127.0.0.1:<port>/boiler?sslmode=disable`.
    public var url: URL {
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = Self.user
        components.host = "127.0.0.1"
        components.port = port
        components.path = "/\(Self.database)"
        components.queryItems = [URLQueryItem(name: "sslmode", value: "disable")]
        // A URL of these parts always exists; the fallback only keeps the type non-optional.
        return components.url ?? URL(fileURLWithPath: "/")
    }

    /// Why a server cannot start on this machine (no PostgreSQL programs found), or nil when it can.
    public static var unavailableReason: String? {
        binaryFolder() == nil
            ? "PostgreSQL server programs (initdb, postgres, createdb, pg_isready) are not in POSTGRES_BIN, "
                + "/usr/lib/postgresql/*/bin or PATH; install them (Debian: apt-get install postgresql)"
            : nil
    }

    /// Runs `body` against a fresh server and stops it afterwards, whatever `body` does.
    ///
    /// Where PostgreSQL is not installed, `body` is not run: the reason is printed and the call
    /// returns — unless ``requiredVariable`` is set, when it throws
    /// ``PostgresTestServerError/unavailable(reason:)``.
    public static func with(_ body: (PostgresTestServer) async throws -> Void) async throws {
        if let reason = unavailableReason {
            guard ProcessInfo.processInfo.environment[requiredVariable] == nil else {
                throw PostgresTestServerError.unavailable(reason: reason)
            }
            print("Skipping PostgreSQL test: \(reason)")
            return
        }
        let server = try await start()
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private init(folder: URL, port: Int, binaries: URL, systemUser: String?) {
        self.folder = folder
        self.port = port
        self.binaries = binaries
        self.systemUser = systemUser
    }

    /// Copies a fresh cluster (with the database) into a new temporary folder and starts it; call
    /// ``stop()`` when done. Takes a few tenths of a second, and about a second more for the
    /// process's first server, which makes the cluster that is copied.
    /// - Throws: ``PostgresTestServerError`` saying which step failed, with its output.
    public static func start() async throws -> PostgresTestServer {
        guard let binaries = binaryFolder() else {
            throw PostgresTestServerError.unavailable(reason: unavailableReason ?? "no PostgreSQL programs")
        }
        // The free port is found before the server binds it, so another process (a test's HTTP
        // server on port 0) can take it in between: the server then cannot listen, and a new
        // server on another port is started instead, a few times at most.
        return try await start(binaries: binaries, firstPort: nil)
    }

    /// ``start()``, whose first try listens on `firstPort` (a test's taken port) when given.
    package static func start(firstPort: Int?) async throws -> PostgresTestServer {
        guard let binaries = binaryFolder() else {
            throw PostgresTestServerError.unavailable(reason: unavailableReason ?? "no PostgreSQL programs")
        }
        return try await start(binaries: binaries, firstPort: firstPort)
    }

    private static func start(binaries: URL, firstPort: Int?) async throws -> PostgresTestServer {
        var attempt = 1
        while true {
            do {
                let port = try (attempt == 1 ? firstPort : nil) ?? freePort()
                return try await start(binaries: binaries, port: port)
            } catch PostgresTestServerError.failed(let step, let output)
                where step == "postgres" && output.contains("Address already in use") && attempt < 5
            {
                attempt += 1
            }
        }
    }

    /// One try of ``start()``: a copy of the process's template cluster, listening on `port`.
    private static func start(binaries: URL, port: Int) async throws -> PostgresTestServer {
        let systemUser: String? = getuid() == 0 ? "boilerpg" : nil
        let template = try await ClusterTemplate.shared.data(binaries: binaries, systemUser: systemUser)
        // Short and under /tmp: the server's unix socket path must fit in 107 bytes.
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("boiler-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let server = PostgresTestServer(folder: folder, port: port, binaries: binaries, systemUser: systemUser)
        do {
            if let systemUser { try await run("/bin/chown", [systemUser, folder.path]) }
            let data = folder.appendingPathComponent("data")
            try await ClusterTemplate.copy(template, to: data)
            try await launch(
                server.server, binaries: binaries, as: systemUser, data: data, folder: folder, port: port,
                options: ["-c", "listen_addresses=127.0.0.1"])
        } catch {
            await server.stop()
            throw error
        }
        return server
    }

    /// Makes sure the unprivileged `user` exists (tests run as root), creating it as a system
    /// user without a home or a shell.
    static func ensureSystemUser(_ user: String) async throws {
        if try await run("/usr/bin/id", ["-u", user], check: false) != 0 {
            try await run(
                "/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user],
                check: false)
        }
    }

    /// Starts `postgres` on the cluster in `data` as a child `process` watches, logging to
    /// `folder`'s `log`, and returns once it accepts connections on its unix socket in `folder`.
    /// - Throws: ``PostgresTestServerError/failed(step:output:)`` with step `postgres` and the
    ///   log's end when it exits or does not answer within a minute.
    static func launch(
        _ process: ServerProcess, binaries: URL, as systemUser: String?, data: URL, folder: URL, port: Int,
        options: [String]
    ) async throws {
        let options =
            [
                "-D", data.path, "-p", "\(port)", "-k", folder.path, "-c", "fsync=off", "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off",
            ] + options
        let logFile = folder.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: logFile)
        defer { try? logHandle.close() }
        let postgres = binaries.appendingPathComponent("postgres").path
        process.watch(
            try ChildProcess.spawn(
                systemUser == nil ? postgres : "/usr/bin/setpriv",
                systemUser.map { dropPrivileges($0) + [postgres] + options } ?? options,
                output: logHandle.fileDescriptor))
        // Ready when it accepts connections; pg_isready exits at once and leaves no descendants.
        // It asks through the unix socket in this server's own folder, never the TCP port: while
        // this server is still starting, or after it failed to bind the port, another test's
        // server may be listening there, and a probe of the port would take that one for this one.
        // A server that cannot bind its TCP address exits, so once the socket answers, the port
        // is this server's too.
        // No probe is started before the socket exists: each is a process, and a loaded test run
        // starts many servers at once.
        let socket = folder.appendingPathComponent(".s.PGSQL.\(port)").path
        var ready = false
        for _ in 0..<600 where !ready && process.isRunning {
            if FileManager.default.fileExists(atPath: socket) {
                let probe = try await run(
                    binaries.appendingPathComponent("pg_isready").path, ["-h", folder.path, "-p", "\(port)", "-q"],
                    check: false)
                ready = probe == 0
            }
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        guard ready else {
            throw PostgresTestServerError.failed(step: "postgres", output: log(in: folder, last: 4_000))
        }
    }

    /// Stops the server at once (an immediate shutdown: nothing it holds is worth keeping), waits
    /// for it to exit (killing it if it has not within 20 s), and deletes its folder. Calling it
    /// again does nothing.
    public func stop() async {
        await server.stop(with: SIGQUIT)
        try? FileManager.default.removeItem(at: folder)
    }

    /// The end of the server's log, for failure messages: at most `last` bytes.
    public func log(last: Int = 16_000) -> String {
        Self.log(in: folder, last: last)
    }

    /// The end of the log in `folder`: at most `last` bytes.
    private static func log(in folder: URL, last: Int) -> String {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("log")) else { return "" }
        return String(decoding: data.suffix(max(0, last)), as: UTF8.self)
    }

    /// Runs the PostgreSQL program `tool` of `binaries` as `systemUser` (when given) to its end;
    /// with `check`, a non-zero exit throws with the program's output.
    @discardableResult
    static func run(
        binaries: URL, as systemUser: String?, _ tool: String, _ arguments: [String], check: Bool = true
    ) async throws -> Int32 {
        let path = binaries.appendingPathComponent(tool).path
        if let systemUser {
            return try await run("/usr/bin/setpriv", dropPrivileges(systemUser) + [path] + arguments, check: check)
        }
        return try await run(path, arguments, check: check)
    }

    /// Runs a program to its end without holding a thread of Swift concurrency; with `check`, a
    /// non-zero exit throws with the program's output.
    @discardableResult
    static func run(_ path: String, _ arguments: [String], check: Bool = true) async throws -> Int32 {
        // The program is read and waited for on a thread of its own: blocking reads register
        // nothing with libdispatch, whose read sources (behind readabilityHandler) can crash the
        // process on Linux when torn down (swift-corelibs-libdispatch#949).
        let (status, output): (Int32, Data) = try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try ChildProcess.runWaiting(path, arguments) }) }.start()
        }
        if check, status != 0 {
            throw PostgresTestServerError.failed(
                step: "\(([path] + arguments).joined(separator: " ")) (exit status \(status))",
                output: String(decoding: output, as: UTF8.self))
        }
        return status
    }

    /// `setpriv` arguments that run the rest of the command line as `user`. `setpriv` execs the
    /// program in its own process (`runuser` forks and may exit first), so the child watched is
    /// the program itself.
    private static func dropPrivileges(_ user: String) -> [String] {
        ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"]
    }

    private static func binaryFolder() -> URL? {
        let fileManager = FileManager.default
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["POSTGRES_BIN"] { candidates.append(explicit) }
        let versions = (try? fileManager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        candidates += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return candidates.first { folder in
            ["initdb", "postgres", "createdb", "pg_isready"].allSatisfy {
                fileManager.isExecutableFile(atPath: "\(folder)/\($0)")
            }
        }.map { URL(fileURLWithPath: $0) }
    }

    /// A loopback port nothing listens on: bound to port 0, read back, released.
    private static func freePort() throws -> Int {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw PostgresTestServerError.failed(step: "socket()", output: "") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw PostgresTestServerError.failed(step: "bind() to 127.0.0.1", output: "") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Why a ``PostgresTestServer`` did not start.
public enum PostgresTestServerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// PostgreSQL is not installed where the server looks for it.
    case unavailable(reason: String)
    /// A step of starting the server failed; `output` is what it printed (or the server's log).
    case failed(step: String, output: String)

    /// One line for a test failure.
    public var description: String {
        switch self {
        case .unavailable(let reason): "PostgreSQL is unavailable: \(reason)"
        case .failed(let step, let output): "Starting PostgreSQL failed at \(step): \(output)"
        }
    }
}

/// The `postgres` child: whether it runs, a wait for its exit, and signals to it.
final class ServerProcess: @unchecked Sendable {
    // @unchecked: state is only touched under `lock`.
    private let lock = NSLock()
    private var child: ChildProcess?
    private var done = false
    /// Waiting for the exit; nil once the child is reaped.
    private var waiters: [CheckedContinuation<Void, Never>]? = []

    /// Whether the child was started and has not exited.
    var isRunning: Bool { lock.withLock { child != nil && !done } }

    /// Watches `child` until it exits, on a thread of its own that blocks in `waitid` (never a
    /// thread of Swift concurrency), and reaps it.
    func watch(_ child: ChildProcess) {
        lock.withLock { self.child = child }
        Thread { [self] in
            child.waitUntilExited()
            // Marked done before it is reaped, under the lock `signal` takes: a signal is never
            // sent to a reaped (and perhaps reused) process id.
            lock.withLock { done = true }
            _ = child.waitForExit()
            finish()
        }.start()
    }

    /// Sends `signal` to the child while it runs; does nothing once it has exited.
    func signal(_ signal: Int32) {
        lock.withLock {
            if let child, !done { _ = kill(child.pid, signal) }
        }
    }

    /// Sends `signal` (SIGQUIT: an immediate shutdown; SIGINT: a fast, clean one) and waits for
    /// the child to exit; after `grace`, SIGKILL ends it. Whether it exited within `grace`.
    ///
    /// The signal goes to the process itself, not through `pg_ctl` and `postmaster.pid`: a server
    /// stopped right after it was spawned (a cancelled test) has no pid file yet, and a stop
    /// that relied on one waited forever on a server that never stopped.
    @discardableResult
    func stop(with signal: Int32, grace: Duration = .seconds(20)) async -> Bool {
        self.signal(signal)
        let killer = Task { [self] in
            try? await Task.sleep(for: grace)
            if Task.isCancelled { return false }
            self.signal(SIGKILL)
            return true
        }
        await exited()
        killer.cancel()
        return await !killer.value
    }

    /// Returns once the child has exited (at once when it was never started).
    func exited() async {
        await withCheckedContinuation { continuation in
            let now = lock.withLock { () -> Bool in
                if child == nil || waiters == nil { return true }
                waiters?.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func finish() {
        let pending = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            defer { waiters = nil }
            return waiters ?? []
        }
        for waiter in pending { waiter.resume() }
    }
}
