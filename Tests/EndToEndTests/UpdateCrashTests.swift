import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `boiler update` killed with SIGKILL at random moments leaves the project as it was, or — once
/// the next `boiler update` finishes the committed journal — fully updated; never a mix.
@Suite("boiler update killed mid-way", .serialized)
struct UpdateCrashTests {
    /// Where a kill landed.
    enum Landing: String, CaseIterable {
        /// Before the journal was committed: the project must be exactly as it was.
        case beforeCommit = "before the commit point"
        /// After it: the next update finishes, and the project must be exactly as updated.
        case afterCommit = "after the commit point"
        /// The update had finished already.
        case finished = "after the update finished"
    }

    /// Backups are named by the time, so two runs differ there; `.boiler/pending` is the journal.
    static let ignored = [".boiler/backup", ".boiler/pending"]

    @Test("SIGKILL at 30 moments spread over an update: the project is as it was or fully updated")
    func killedUpdates() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let project = scratch.url.appendingPathComponent("Notes")
        let made = try await BoilerProcess.boiler(
            [
                "new", "Notes", "--kit-path", BoilerProcess.kitRoot.path, "--output", project.path, "--no-git",
                "--no-interactive",
            ], in: scratch.url)
        try #require(made.status == 0, "\(made.output)")
        // Every recorded file as an older template wrote it, so the update rewrites them all.
        let record =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: project.appendingPathComponent(".boiler.json"))) as? [String: Any]
        let paths = (record?["files"] as? [String: String] ?? [:]).keys.sorted()
        try OlderTemplate(
            older: paths.map { OlderTemplate.Change(path: $0, prepend: "// older template\n") }, user: [],
            expect: .init(updated: [], merged: [], conflict: [], added: [], removed: [], kept: [])
        ).makeOlder(project)
        let old = OlderTemplate.snapshot(project)

        // The updated state, from an update nobody killed, with the same pauses: how long it
        // takes on this machine now is the window the kills are spread over.
        let started = Date()
        let failed = try await Self.runKilled(in: project, afterMicroseconds: nil)
        let window = Date().timeIntervalSince(started)
        try #require(!failed, "the update nobody killed failed")
        let new = OlderTemplate.snapshot(project, excluding: Self.ignored)
        #expect(
            new.count == old.count, "the update added or removed files: \(Set(new.keys).symmetricDifference(old.keys))")

        var landings: [Landing: Int] = [:]
        let rounds = 30
        for round in 0..<rounds {
            try Self.restore(old, in: project)
            // One kill in each thirtieth of the window, at a random moment in it: every stretch
            // of the update (planning, staging, the commit point, the moves) is hit.
            let killAfter = UInt32(window * 1_000_000 * (Double(round) + Double.random(in: 0..<1)) / Double(rounds))
            let killed = try await Self.runKilled(in: project, afterMicroseconds: killAfter)
            let journal = project.appendingPathComponent(".boiler/pending/journal.json")
            let landing: Landing
            if FileManager.default.fileExists(atPath: journal.path) {
                landing = .afterCommit
                // Half done: the record refuses to be read, and the next update finishes it.
                let doctor = try await BoilerProcess.boiler(["doctor"], in: project)
                #expect(doctor.output.contains("interrupted"), "round \(round): \(doctor.output)")
                let finish = try await BoilerProcess.boiler(["update"], in: project)
                #expect(finish.status == 0, "round \(round): \(finish.output)")
                #expect(
                    OlderTemplate.snapshot(project, excluding: Self.ignored) == new, "round \(round): not fully updated"
                )
            } else {
                let now = OlderTemplate.snapshot(project, excluding: Self.ignored)
                landing = killed && now != new ? .beforeCommit : .finished
                if landing == .beforeCommit {
                    #expect(now == old, "round \(round): the project changed before the commit point")
                } else {
                    #expect(now == new, "round \(round): finished, but not as updated")
                }
            }
            landings[landing, default: 0] += 1
        }
        let summary = Landing.allCases.map { "\($0.rawValue): \(landings[$0] ?? 0)" }.joined(separator: ", ")
        print("update crash test, where \(rounds) kills within \(Int(window * 1000)) ms landed: \(summary)")
        // The test proves something only if kills landed on both sides of the commit point.
        #expect((landings[.beforeCommit] ?? 0) >= 2, "\(summary)")
        #expect((landings[.afterCommit] ?? 0) >= 2, "\(summary)")
    }

    /// Puts `snapshot` back as the whole project.
    static func restore(_ snapshot: [String: Data], in project: URL) throws {
        try FileManager.default.removeItem(at: project)
        for (path, data) in snapshot {
            let url = project.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
    }

    /// Starts `boiler update` with a pause between its steps and kills it with SIGKILL after
    /// `delay` µs (or lets it finish when nil), on a thread of its own. Returns whether the kill
    /// found it still running.
    static func runKilled(in project: URL, afterMicroseconds delay: UInt32?) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    let process = Process()
                    process.executableURL = BoilerProcess.boiler
                    process.arguments = ["update", "--quiet"]
                    process.currentDirectoryURL = project
                    var environment = ProcessInfo.processInfo.environment
                    // 2 ms between steps: the update's ~200 steps take about half a second, so
                    // kills at random moments land at every step.
                    environment["BOILER_TEST_STEP_PAUSE_US"] = "2000"
                    process.environment = environment
                    process.standardOutput = FileHandle.nullDevice
                    process.standardError = FileHandle.nullDevice
                    try process.run()
                    guard let delay else {
                        process.waitUntilExit()
                        // Not killed: true when it failed.
                        continuation.resume(returning: process.terminationStatus != 0)
                        return
                    }
                    usleep(delay)
                    let running = process.isRunning
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    continuation.resume(returning: running && process.terminationReason == .uncaughtSignal)
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }
}
