import Foundation
import Storage
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// No nesting of the locking APIs deadlocks: `withLock` around `load` of a corrupt file (whose
/// quarantine takes the key's lock), `withLock` inside `withLock`, and `withLock` or `load`
/// inside a `Persisted` update.
///
/// Technique, free of timeouts: the combinations run in a child process (the probe), so a
/// deadlock cannot hang the test runner, and the test decides "deadlocked" from the kernel's
/// own state instead of from elapsed time. On Linux, `/proc/locks` lists every `flock` request
/// that is blocked (a line with `->`) with the pid of the waiter. The probe holds no other
/// process's locks, so a blocked request of the probe's pid means it waits on itself: a deadlock
/// the test reports at once. On other platforms the test waits for the probe to finish.
@Suite("Nested locks")
struct NestedLockTests {
    @Test("withLock { load } of a corrupt file, nested withLock and locks inside an update all finish")
    func nestedLocksFinish() throws {
        let temporary = try TemporaryFolder()
        let (process, pipe) = try Probe.start(["lock-combos", temporary.url.path, "counter.json"])
        var deadlocked = false
        while process.isRunning {
            if Self.isBlockedOnALock(process.processIdentifier) {
                deadlocked = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(20_000)
        }
        process.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!deadlocked, "the probe waited on a lock it holds itself (output so far: \(output))")
        #expect(process.terminationStatus == 0)
        #expect(output.contains("finished"))
        // Every combination quarantined its corrupt file and the probe removed it: nothing is left.
        #expect(temporary.allFiles().filter { $0.contains(".corrupt-") }.isEmpty)
    }

    /// Whether `/proc/locks` shows a blocked lock request by `pid` (always false off Linux).
    static func isBlockedOnALock(_ pid: Int32) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return false }
        // "12: -> FLOCK  ADVISORY  WRITE 4242 fe:00:1234 0 EOF" is a request by 4242 that waits.
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 5 && fields[1] == "->" && fields[5] == Substring(String(pid))
        }
    }
}
