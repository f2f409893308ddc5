import Foundation
import Testing

@testable import StoragePostgresTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The test server's programs start with nothing of this process but their three standard
/// descriptors, with no signal blocked, and their output and exit status come back whole.
@Suite struct ChildProcessTests {
    @Test func aChildInheritsNoDescriptorButItsStandardOnes() throws {
        // A descriptor without close-on-exec, as a loopback server's socket may be: a child
        // holding it would keep that server's port alive after the test closed it.
        var pair: [Int32] = [0, 0]
        #expect(pipe(&pair) == 0)
        defer { for descriptor in pair { close(descriptor) } }
        #if os(Linux)
            let (status, output) = try ChildProcess.runWaiting("/bin/sh", ["-c", "ls /proc/self/fd"])
            #expect(status == 0)
            // 0, 1, 2, and the descriptor `ls` opened to read the folder.
            let open = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
            #expect(open.filter { $0 > 3 }.isEmpty, "inherited: \(open)")
        #endif
    }

    @Test func aChildStartsWithNoSignalBlockedAndSIGPIPEAtItsDefault() throws {
        #if os(Linux)
            let (_, output) = try ChildProcess.runWaiting(
                "/bin/sh", ["-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status"])
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
            let blocked = lines.first { $0.hasPrefix("SigBlk") }?.split(separator: "\t").last
            let ignored = lines.first { $0.hasPrefix("SigIgn") }?.split(separator: "\t").last
            #expect(blocked.flatMap { UInt64($0, radix: 16) } == 0)
            // SIGPIPE is signal 13: bit 12 of the ignored set.
            let ignoredMask = try #require(ignored.flatMap { UInt64($0, radix: 16) })
            #expect(ignoredMask & (1 << 12) == 0)
        #endif
    }

    @Test func outputAndExitStatusComeBackWhole() throws {
        // More than a pipe holds (64 KiB): read before waiting, or the child never exits.
        let (status, output) = try ChildProcess.runWaiting(
            "/bin/sh", ["-c", "head -c 300000 /dev/zero; echo err >&2; exit 3"])
        #expect(status == 3)
        #expect(output.count == 300_004)
        let (killed, _) = try ChildProcess.runWaiting("/bin/sh", ["-c", "kill -9 $$"])
        #expect(killed == 128 + 9)
    }

    @Test func aProgramThatCannotStartIsATypedError() {
        #expect(throws: PostgresTestServerError.self) {
            try ChildProcess.runWaiting("/nonexistent/program\nwith a newline", [])
        }
    }
}
