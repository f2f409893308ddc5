import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A throwaway PostgreSQL server for a benchmark suite: `initdb` into a temporary folder,
/// `postgres` on a free loopback port as a child process, stopped and deleted by ``stop()``.
///
/// A small copy of the Storage tests' `PostgresServer` (test code cannot be imported here).
/// The server runs as a direct child, not through `pg_ctl start`, so its exit is observable.
/// PostgreSQL refuses to run as root: as root it runs as the unprivileged user `boilerpg`,
/// created if missing. `POSTGRES_BIN` names the folder of the binaries; otherwise the newest
/// `/usr/lib/postgresql/*/bin` (Debian) or the `PATH` is searched.
final class PostgresServer: Sendable {
    let folder: URL
    let port: Int
    let bin: URL
    let user: String?
    let server: Process
    let exited: ExitSignal

    /// `postgres://boiler@127.0.0.1:<port>/boiler?sslmode=disable`.
    var url: URL {
        // swift-format-ignore: NeverForceUnwrap
        URL(string: "postgres://boiler@127.0.0.1:\(port)/boiler?sslmode=disable")!
    }

    /// Why no server can start here (the binaries are missing), or nil when one can.
    static var unavailableReason: String? {
        binFolder() == nil
            ? "PostgreSQL server binaries (initdb, postgres, pg_ctl) not found in POSTGRES_BIN, "
                + "/usr/lib/postgresql/*/bin or PATH (apt-get install postgresql)"
            : nil
    }

    private init(folder: URL, port: Int, bin: URL, user: String?) {
        self.folder = folder
        self.port = port
        self.bin = bin
        self.user = user
        self.server = Process()
        self.exited = ExitSignal()
    }

    /// Starts a server with an empty database `boiler` owned by the user `boiler`. The server
    /// trades durability for speed (`fsync=off`, `synchronous_commit=off`), for both sides alike.
    static func start() async throws -> PostgresServer {
        guard let bin = binFolder() else { throw ServerError("no PostgreSQL binaries") }
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent(
            "boiler-bench-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var user: String?
        if getuid() == 0 {
            user = "boilerpg"
            if try await run("/usr/bin/id", ["-u", "boilerpg"], check: false) != 0 {
                try await run(
                    "/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "boilerpg"],
                    check: false)
            }
            try await run("/bin/chown", ["-R", "boilerpg", folder.path])
        }
        let server = PostgresServer(folder: folder, port: try freePort(), bin: bin, user: user)
        do {
            try await server.launch()
        } catch {
            await server.stop()
            throw error
        }
        return server
    }

    private func launch() async throws {
        let data = folder.appendingPathComponent("data").path
        try await runAsOwner(
            "initdb",
            ["-D", data, "-U", "boiler", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"])
        let options = [
            "-D", data, "-p", "\(port)", "-k", folder.path, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
            "-c", "synchronous_commit=off",
        ]
        let log = folder.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        let postgres = bin.appendingPathComponent("postgres").path
        server.executableURL = URL(fileURLWithPath: user == nil ? postgres : "/usr/bin/setpriv")
        server.arguments = user.map { Self.dropPrivileges($0) + [postgres] + options } ?? options
        server.standardOutput = logHandle
        server.standardError = logHandle
        server.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
        let exited = exited
        server.terminationHandler = { _ in exited.signal() }
        try server.run()
        var ready = false
        for _ in 0..<600 where !ready && server.isRunning {
            let probe = try await Self.run(
                bin.appendingPathComponent("pg_isready").path, ["-h", "127.0.0.1", "-p", "\(port)", "-q"], check: false)
            ready = probe == 0
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        guard ready else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw ServerError("PostgreSQL did not start: \(text)")
        }
        try await runAsOwner("createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "boiler", "boiler"])
    }

    /// Stops the server at once (immediate shutdown), waits for it to exit, deletes its folder.
    func stop() async {
        if server.isRunning {
            _ = try? await runAsOwner(
                "pg_ctl", ["-D", folder.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"],
                check: false)
            await exited.wait()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    @discardableResult
    private func runAsOwner(_ tool: String, _ arguments: [String], check: Bool = true) async throws -> Int32 {
        let path = bin.appendingPathComponent(tool).path
        guard let user else { return try await Self.run(path, arguments, check: check) }
        return try await Self.run("/usr/bin/setpriv", Self.dropPrivileges(user) + [path] + arguments, check: check)
    }

    /// Runs a program to its end without blocking a thread; fails with its output when it fails.
    @discardableResult
    static func run(_ path: String, _ arguments: [String], check: Bool = true) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        if check, status != 0 {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw ServerError("\(path) \(arguments.joined(separator: " ")) exited with \(status): \(text)")
        }
        return status
    }

    /// `setpriv` execs the program in its own process, so the child we watch is the program itself.
    private static func dropPrivileges(_ user: String) -> [String] {
        ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"]
    }

    private static func binFolder() -> URL? {
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["POSTGRES_BIN"] { candidates.append(explicit) }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        candidates += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return candidates.first { folder in
            ["initdb", "postgres", "pg_ctl", "pg_isready", "createdb"].allSatisfy {
                FileManager.default.isExecutableFile(atPath: "\(folder)/\($0)")
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
        guard descriptor >= 0 else { throw ServerError("socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw ServerError("bind() to 127.0.0.1 failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A one-shot signal a task can await: the server process's exit.
final class ExitSignal: @unchecked Sendable {
    // @unchecked: state is only touched under `lock`.
    private let lock = NSLock()
    private var done = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func signal() {
        let pending = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            done = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in pending { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = lock.withLock { () -> Bool in
                if done { return true }
                waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
