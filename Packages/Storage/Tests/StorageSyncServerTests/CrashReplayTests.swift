import Foundation
import Storage
import StorageSyncServer
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite(
    "A server killed between a write's commit and its answer: the replay gets the first answer", .timeLimit(.minutes(5))
)
struct CrashReplayTests {
    @Test(
        "the client's retry after the restart is answered from the receipt, and the write applied once",
        arguments: SyncDatabase.allCases)
    func replayAfterCrash(_ database: SyncDatabase) async throws {
        try await SyncDatabaseFixture.with(database) { fixture in
            let store = try await fixture.openStore()
            try await store.insert(SyncNote(id: "n1", text: "before"))
            let edit = SyncNote(id: "n1", text: "after")

            // The first server commits the edit, then dies before answering.
            let doomed = try await ProbeServer.start(fixture, dieAfterCommit: true)
            let lost = try? await SyncHTTP(port: doomed.port).write(.put, "/notes/n1", key: "k1", base: 0, note: edit)
            #expect(lost == nil, "the client must not get an answer: \(String(describing: lost?.status))")
            await doomed.waitForExit()
            #expect(doomed.killedBySignal)
            // The edit did commit: the client does not know, and retries.
            #expect(try await store.fetch(id: "n1") == SyncNote(id: "n1", text: "after", revision: 1))

            let restarted = try await ProbeServer.start(fixture, dieAfterCommit: false)
            let http = SyncHTTP(port: restarted.port)
            let retry = try await http.write(.put, "/notes/n1", key: "k1", base: 0, note: edit)
            #expect(retry.status == 200)
            #expect(retry.header(SyncHeader.replayed) == "true")
            #expect(try retry.json["revision"] as? Int == 1)
            #expect((try retry.json["record"] as? [String: Any])?["text"] as? String == "after")
            // Applied once: still revision 1, and one feed entry for the record.
            #expect(try await store.fetch(id: "n1")?.revision == 1)
            #expect(try await store.changes(after: nil).entries.map(\.id) == ["n1"])
            // The same create, crashed and retried, does not become a conflict with itself.
            let doomedCreate = try await ProbeServer.start(fixture, dieAfterCommit: true)
            let note = SyncNote(id: "n2", text: "created offline")
            #expect((try? await SyncHTTP(port: doomedCreate.port).write(.post, "/notes", key: "k2", note: note)) == nil)
            await doomedCreate.waitForExit()
            let created = try await http.write(.post, "/notes", key: "k2", note: note)
            #expect(created.status == 201 && created.header(.location) == "/notes/n2")
            restarted.stop()
            await restarted.waitForExit()
        }
    }
}

/// A `StorageSyncServerProbe` child process serving the fixture's `notes` table.
final class ProbeServer: @unchecked Sendable {
    // @unchecked: `process` is a Foundation Process (thread-safe for these calls); `output` locks.
    let process: Process
    let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    static var executable: URL? {
        if let path = ProcessInfo.processInfo.environment["STORAGE_SYNC_SERVER_PROBE"] {
            return URL(fileURLWithPath: path)
        }
        var folders = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
            $0.bundleURL.deletingLastPathComponent()
        }
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        return folders.map { $0.appendingPathComponent("StorageSyncServerProbe") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }

    /// Starts the probe and waits until it listens.
    static func start(_ fixture: SyncDatabaseFixture, dieAfterCommit: Bool) async throws -> ProbeServer {
        let process = Process()
        let probe: URL = try #require(executable, "StorageSyncServerProbe not found; set STORAGE_SYNC_SERVER_PROBE")
        process.executableURL = probe
        process.arguments =
            [fixture.kind.rawValue, fixture.location, "notes"] + (dieAfterCommit ? ["--die-after-commit"] : [])
        let pipe = Pipe()
        process.standardOutput = pipe
        let output = ProbeOutput()
        pipe.fileHandleForReading.readabilityHandler = { output.append($0.availableData) }
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, process.isRunning {
            if let line = output.text.split(separator: "\n").first(where: { $0.hasPrefix("port ") }),
                let port = Int(line.dropFirst(5)), port > 0
            {
                return ProbeServer(process: process, port: port)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw ProbeError.didNotStart(output.text)
    }

    /// Whether the probe ended by a signal (its SIGKILL after the commit).
    var killedBySignal: Bool { !process.isRunning && process.terminationReason == .uncaughtSignal }

    func stop() { kill(process.processIdentifier, SIGKILL) }

    func waitForExit() async {
        while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
    }

    enum ProbeError: Error { case didNotStart(String) }
}

/// What a probe printed, gathered from the pipe's handler thread.
private final class ProbeOutput: @unchecked Sendable {
    // @unchecked: `data` is only touched under `lock`.
    private let lock = NSLock()
    private var data = Data()

    func append(_ chunk: Data) { lock.withLock { data.append(chunk) } }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
