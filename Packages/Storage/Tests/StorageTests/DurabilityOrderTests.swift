import Foundation
import Storage
import Testing

/// The order of a save's system calls is what makes it durable: the new file's data is flushed
/// before the rename publishes it (or a power cut could leave the new name on empty data), and,
/// at ``Durability/fileAndFolder``, the folder is flushed after the rename (or the rename itself
/// could be lost).
///
/// Technique: the test cannot cut the power, so it watches the system calls instead. It runs
/// the probe (`StorageCrashProbe save-times`), which saves a key a few times, under
/// `strace -f -e trace=fsync,fdatasync,rename,renameat,renameat2,openat`, and reads the trace:
/// each `openat` says which path a descriptor number names until the next `openat` returns the
/// same number, so every `fsync(fd)` is attributed to the temporary file or the folder, and its
/// place relative to the `rename` of that temporary file is checked. These are the real calls
/// the library makes, with no test hook in it. (On Apple platforms the flush is
/// `fcntl(F_FULLFSYNC)`; strace is Linux-only, so this test runs on Linux.) The test skips only
/// when strace is not installed; `.ci/run` installs it.
@Suite("Durability order", .enabled(if: Strace.url != nil, "strace is not installed: apt-get install -y strace"))
struct DurabilityOrderTests {
    /// One traced system call: its name, arguments (as strace prints them) and result.
    struct Call {
        var name: String
        var arguments: String
        var result: String
    }

    /// What happened in one save, in trace order.
    enum Event: Equatable {
        case flushTemporary
        case rename
        case flushFolder
        case flushOther(String)
    }

    static func trace(durability: String, saves: Int) throws -> [[Event]] {
        let temporary = try TemporaryFolder()
        let traceFile = temporary.url.appendingPathComponent("trace.txt")
        let folder = temporary.url.appendingPathComponent("store", isDirectory: true)
        let process = Process()
        process.executableURL = try Strace.url.orThrow()
        process.arguments = [
            "-f", "-s", "4096", "-o", traceFile.path, "-e", "trace=fsync,fdatasync,rename,renameat,renameat2,openat",
            try Probe.url.orThrow().path, "save-times", folder.path, "value.json", durability, String(saves),
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "strace or the probe failed")
        let calls = try String(contentsOf: traceFile, encoding: .utf8).split(separator: "\n").compactMap(Self.parse)

        var paths: [String: String] = [:]  // descriptor → the path its latest openat named
        var saveEvents: [[Event]] = []
        for call in calls {
            let first = call.arguments.split(separator: ",").first.map(String.init) ?? ""
            switch call.name {
            case "openat":
                guard let path = Self.quoted(call.arguments).first else { continue }
                paths[call.result] = path
                if (path as NSString).lastPathComponent.hasPrefix(".~value.json.") { saveEvents.append([]) }
            case "fsync", "fdatasync":
                guard !saveEvents.isEmpty else { continue }
                let path = paths[first] ?? "fd \(first)"
                let name = (path as NSString).lastPathComponent
                let event: Event =
                    name.hasPrefix(".~value.json.") && name.hasSuffix(".tmp")
                    ? .flushTemporary
                    : (path as NSString).standardizingPath == (folder.path as NSString).standardizingPath
                        ? .flushFolder : .flushOther(path)
                saveEvents[saveEvents.count - 1].append(event)
            default:  // rename, renameat, renameat2
                guard !saveEvents.isEmpty, call.result == "0" else { continue }
                let quoted = Self.quoted(call.arguments)
                if quoted.count == 2, quoted[1].hasSuffix("/value.json") {
                    saveEvents[saveEvents.count - 1].append(.rename)
                }
            }
        }
        return saveEvents
    }

    /// `1234 fsync(3) = 0` → ("fsync", "3", "0"); unfinished/resumed halves are not expected
    /// (the probe saves on one thread) and are skipped.
    static func parse(_ line: Substring) -> Call? {
        // strace pads the result into a column: `fsync(3)                          = 0`.
        guard let equals = line.range(of: " = ", options: .backwards), let open = line.firstIndex(of: "(") else {
            return nil
        }
        var head = line[..<equals.lowerBound]
        while head.last == " " { head = head.dropLast() }
        guard head.last == ")", open < head.endIndex else { return nil }
        let name = line[..<open].split(separator: " ").last.map(String.init) ?? ""
        let arguments = String(head[head.index(after: open)..<head.index(before: head.endIndex)])
        let result = line[equals.upperBound...].split(separator: " ").first.map(String.init) ?? ""
        return Call(name: name, arguments: arguments, result: result)
    }

    /// The double-quoted strings in strace's arguments, in order.
    static func quoted(_ arguments: String) -> [String] {
        arguments.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test("Durability.file: each save flushes the temporary file's data before the rename, and only that")
    func file() throws {
        let saves = try Self.trace(durability: "file", saves: 3)
        #expect(saves.count == 3)
        for events in saves { #expect(events == [.flushTemporary, .rename]) }
    }

    @Test("Durability.fileAndFolder: data flushed before the rename, the folder flushed after it")
    func fileAndFolder() throws {
        let saves = try Self.trace(durability: "fileAndFolder", saves: 3)
        #expect(saves.count == 3)
        for events in saves { #expect(events == [.flushTemporary, .rename, .flushFolder]) }
    }

    @Test("Durability.none: the rename only, no flush")
    func none() throws {
        let saves = try Self.trace(durability: "none", saves: 3)
        #expect(saves.count == 3)
        for events in saves { #expect(events == [.rename]) }
    }
}

/// The strace executable, when installed.
enum Strace {
    static let url: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin"] {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent("strace")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()
}
