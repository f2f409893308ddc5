import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program the test server runs (`initdb`, `postgres`, `pg_isready`…): started with its standard
/// input on `/dev/null`, its output and errors into a descriptor of the caller, in `/tmp`, with
/// no other descriptor of this process.
///
/// Why not Foundation's `Process` on Linux: `Process.run()` lists `/proc/self/fd` to find what to
/// close in the child and copies each entry's whole 256-byte name field out of `readdir`'s
/// buffer. A process holding more than about 1,350 descriptors fills that buffer to its end, and
/// the copy of the last entry can read past it into an unmapped page (swift-corelibs-foundation
/// PR #5472). The unit tests run hundreds of loopback servers at once; their process crashed
/// there with signal 11, in the test server's `Process.run()`, in CI and locally. Here
/// `posix_spawn` closes the child's inherited descriptors itself (glibc's `closefrom` action;
/// `POSIX_SPAWN_CLOEXEC_DEFAULT` on Darwin), so nothing is listed.
struct ChildProcess: Sendable {
    /// The child's process id.
    let pid: pid_t

    /// Starts `path` with `arguments`, its standard output and error written to `output` (which
    /// stays open and the caller's).
    /// - Throws: ``PostgresTestServerError/failed(step:output:)`` when the program cannot start.
    static func spawn(_ path: String, _ arguments: [String], output: Int32) throws -> ChildProcess {
        #if os(Linux)
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
            // glibc 2.29 and 2.34 have these; Swift's Glibc module does not declare them.
            guard let closeFrom = GlibcSpawnExtensions.closeFrom,
                let changeDirectory = GlibcSpawnExtensions.changeDirectory
            else {
                throw PostgresTestServerError.failed(
                    step: path, output: "posix_spawn needs glibc 2.34 (posix_spawn_file_actions_addclosefrom_np)")
            }
        #else
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        // The child starts with no signal blocked and SIGPIPE at its default, as from a shell: a
        // thread of Swift concurrency blocks most signals, and Swift programs ignore SIGPIPE, and
        // a child would inherit both.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        #if os(Linux)
            _ = closeFrom(&actions, 3)
            _ = changeDirectory(&actions, "/tmp")
            let environment = environ
        #else
            // Every descriptor not named above closes in the child.
            flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
            posix_spawn_file_actions_addchdir_np(&actions, "/tmp")
            let environment = _NSGetEnviron().pointee
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, environment)
        guard status == 0 else {
            throw PostgresTestServerError.failed(step: path, output: String(cString: strerror(status)))
        }
        return ChildProcess(pid: pid)
    }

    /// Blocks the calling thread until the child has exited, without reaping it: until it is
    /// reaped, its process id cannot be given to another process, so a signal sent to it reaches
    /// this child or nothing.
    func waitUntilExited() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 {
            guard errno == EINTR else { return }
        }
    }

    /// Blocks the calling thread until the child exits, and reaps it. Its exit status, or 128 +
    /// the signal that ended it.
    func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return -1 }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Runs `path` to its end on the calling thread, which it blocks: its exit status and
    /// everything it wrote to standard output and error.
    static func runWaiting(_ path: String, _ arguments: [String]) throws -> (Int32, Data) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw PostgresTestServerError.failed(step: "pipe()", output: String(cString: strerror(errno)))
        }
        defer { close(descriptors[0]) }
        let child: ChildProcess
        do {
            child = try spawn(path, arguments, output: descriptors[1])
        } catch {
            close(descriptors[1])
            throw error
        }
        close(descriptors[1])
        // Read to the end before waiting: a program that writes more than a pipe holds would
        // otherwise wait forever.
        let output = readToEnd(descriptors[0])
        return (child.waitForExit(), output)
    }

    /// Everything readable from `descriptor` until its end (or a read error). A read a signal
    /// interrupts is retried: `FileHandle.readDataToEndOfFile()` stops the process on `EINTR`.
    private static func readToEnd(_ descriptor: Int32) -> Data {
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                output.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                return output
            }
        }
    }
}

#if os(Linux)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `…_addchdir_np` (2.29),
    /// looked up once: the headers declare them only for `_GNU_SOURCE`, which Swift's Glibc
    /// module is not built with.
    private enum GlibcSpawnExtensions {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        typealias ChangeDirectory =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

        static let closeFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
            unsafeBitCast($0, to: CloseFrom.self)
        }
        static let changeDirectory: ChangeDirectory? = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
            unsafeBitCast($0, to: ChangeDirectory.self)
        }
    }
#endif
