import Foundation
import Storage
import Testing

/// A save's temporary file is created with the permissions of the file it replaces, so the new
/// contents are never readable by more users than the old ones while they are written; and
/// whatever the process's umask takes from those permissions is given back before the rename.
///
/// Technique: a real process. The probe (`StorageCrashProbe save-times`) saves a key whose file
/// already exists, started through `/bin/sh` with the umask the test chooses; where the test
/// needs to see the mode the temporary file was created with, the probe runs under
/// `strace -e trace=openat` and the test reads the mode argument of the temporary file's
/// `openat`. No hook in the library.
@Suite("Temporary file mode")
struct TemporaryFileModeTests {
    static func mode(_ url: URL) throws -> Int {
        try ((FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue)
            .orThrow()
    }

    /// Runs the probe `saves` times on `key` in `folder`, with `umask`, optionally under strace
    /// (its trace written to `trace`).
    static func probe(folder: URL, key: String, saves: Int, umask: String, trace: URL? = nil) throws {
        let probe = try Probe.url.orThrow().path
        var command = "umask \(umask) && exec "
        if let trace { command += "'\(try Strace.url.orThrow().path)' -f -o '\(trace.path)' -e trace=openat " }
        command += "'\(probe)' save-times '\(folder.path)' '\(key)' file \(saves)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the probe failed: \(command)")
    }

    @Test(
        "the temporary file is created with the replaced file's mode, not wider",
        .enabled(if: Strace.url != nil, "strace is not installed: apt-get install -y strace"),
        arguments: [0o600, 0o640, 0o400])
    func createdWithTheFilesMode(_ mode: Int) throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try store.save(data: Data("{}".utf8), as: "value.json")
        let url = try store.url(for: "value.json")
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        let trace = temporary.url.appendingPathComponent("trace.txt")

        try Self.probe(folder: temporary.url, key: "value.json", saves: 2, umask: "022", trace: trace)

        let opens = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("openat(") && $0.contains("/.~value.json.") && $0.contains("O_CREAT") }
        #expect(opens.count == 2, "expected one temporary file per save: \(opens)")
        for line in opens {
            // `openat(AT_FDCWD, "…/.~value.json.123.0.tmp", O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC, 0600) = 3`
            let created = line.split(separator: ")").first?.split(separator: ",").last?
                .trimmingCharacters(in: .whitespaces)
            #expect(created.flatMap { Int($0, radix: 8) } == mode, "\(line)")
        }
        #expect(try Self.mode(url) == mode)
    }

    @Test(
        "a umask that takes bits of the file's mode does not take them from the saved file",
        arguments: [(0o664, "077"), (0o644, "077"), (0o775, "027"), (0o600, "777")])
    func umaskDoesNotNarrowTheMode(_ mode: Int, _ umask: String) throws {
        let temporary = try TemporaryFolder()
        let store = try temporary.store()
        try store.save(data: Data("{}".utf8), as: "value.json")
        let url = try store.url(for: "value.json")
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)

        try Self.probe(folder: temporary.url, key: "value.json", saves: 3, umask: umask)

        #expect(try Self.mode(url) == mode)
        #expect(try store.data(at: "value.json").count > 2, "the probe's saves did not land")
        #expect(temporary.allFiles() == ["value.json"])
    }

    @Test("a new key's file still gets the usual mode under the process's umask")
    func newFileFollowsTheUmask() throws {
        let temporary = try TemporaryFolder()
        try Self.probe(folder: temporary.url, key: "fresh.json", saves: 1, umask: "027")
        #expect(try Self.mode(temporary.url.appendingPathComponent("fresh.json")) == 0o640)
    }
}
