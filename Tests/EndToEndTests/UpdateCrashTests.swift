import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `boiler update` killed with SIGKILL at any of its steps leaves the project as it was, or — once
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

    @Test("SIGKILL at each step of an update in turn: the project is as it was or fully updated")
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

        // The updated state, from an update nobody killed.
        let failed = try await Self.runKilled(in: project, atStep: nil)
        try #require(!failed, "the update nobody killed failed")
        let new = OlderTemplate.snapshot(project, excluding: Self.ignored)
        #expect(
            new.count == old.count, "the update added or removed files: \(Set(new.keys).symmetricDifference(old.keys))")

        // A SIGKILL at each step in turn (planning is not a step: it writes nothing), until an
        // update reaches its end before the step comes: every stretch of the update (staging,
        // the commit point, the moves, the clean-up) is hit, on a fast machine or a loaded one.
        var landings: [Landing: Int] = [:]
        var step = 0
        while landings[.finished] == nil {
            step += 1
            try #require(step <= 2_000, "an update of \(old.count) files never finished")
            try Self.restore(old, in: project)
            let killed = try await Self.runKilled(in: project, atStep: step)
            let journal = project.appendingPathComponent(".boiler/pending/journal.json")
            let landing: Landing
            if FileManager.default.fileExists(atPath: journal.path) {
                landing = .afterCommit
                // Half done: the record refuses to be read, and the next update finishes it.
                let doctor = try await BoilerProcess.boiler(["doctor"], in: project)
                #expect(doctor.output.contains("interrupted"), "step \(step): \(doctor.output)")
                let finish = try await BoilerProcess.boiler(["update"], in: project)
                #expect(finish.status == 0, "step \(step): \(finish.output)")
                #expect(
                    OlderTemplate.snapshot(project, excluding: Self.ignored) == new, "step \(step): not fully updated")
            } else {
                let now = OlderTemplate.snapshot(project, excluding: Self.ignored)
                landing = killed ? .beforeCommit : .finished
                if landing == .beforeCommit {
                    #expect(now == old, "step \(step): the project changed before the commit point")
                } else {
                    #expect(now == new, "step \(step): finished, but not as updated")
                }
            }
            landings[landing, default: 0] += 1
        }
        let summary = Landing.allCases.map { "\($0.rawValue): \(landings[$0] ?? 0)" }.joined(separator: ", ")
        print("update crash test, where kills at each of \(step - 1) steps landed: \(summary)")
        // Files are staged before the commit point and moved after it: kills landed on both sides.
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

    /// Runs `boiler update` (or `boiler <arguments>`), which sends itself SIGKILL at its `step`th
    /// step (or finishes when nil), on a thread of its own. Returns whether it was killed (or,
    /// with no step, whether it failed).
    static func runKilled(
        _ arguments: [String] = ["update", "--quiet"], in project: URL, atStep step: Int?
    ) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    let process = Process()
                    process.executableURL = BoilerProcess.boiler
                    process.arguments = arguments
                    process.currentDirectoryURL = project
                    var environment = ProcessInfo.processInfo.environment
                    if let step { environment["BOILER_TEST_KILL_AT_STEP"] = "\(step)" }
                    process.environment = environment
                    process.standardOutput = FileHandle.nullDevice
                    process.standardError = FileHandle.nullDevice
                    try process.run()
                    process.waitUntilExit()
                    let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
                    continuation.resume(returning: step == nil ? process.terminationStatus != 0 : killed)
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }
}
