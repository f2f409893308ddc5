import Foundation
import Testing

@testable import Boilerplate

/// What the crash probe writes: the ids of the commands whose changes were saved.
private struct ProbeLog: Codable, Equatable {
    var ids: [Int] = []
}

@Suite("AppCore survives being killed")
struct AppCoreCrashTests {
    /// How it works: a child process (`AppCoreCrashProbe`) runs commands with file persistence
    /// from four tasks and prints each command's id before it runs it ("S") and after `run`
    /// returned ("A": announced, so saved). The test kills it with SIGKILL after a random delay,
    /// reads everything it printed, and loads the file it left. A kill lands mid-save when the
    /// save's temporary file is still in the folder (it exists only between its creation and the
    /// rename); the test counts those and goes on killing until at least 24 kills have landed
    /// mid-save (and at least 100 in all), so a loaded machine, where fewer kills land inside a
    /// save, takes more rounds instead of failing; 400 rounds is the bound. After every kill the file must
    /// decode, hold every announced id (never older than the last announcement), and hold only
    /// ids that were started (never something that was not run). The next child continues the
    /// same file, so a torn or lost save would show in a later round as well.
    static let requiredMidSave = 24
    static let maximumKills = 400

    @Test("SIGKILL at random moments: the file is never torn, never older than the last announced change")
    func killedAtRandomMoments() async throws {
        let probe = try #require(
            BuiltExecutable.url(named: "AppCoreCrashProbe"), "AppCoreCrashProbe is not built beside the tests")
        let folder = try AppFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("log.json")
        var started = Set<Int>()
        var announced = Set<Int>()
        var kills = 0
        var midSave = 0
        var generator = SystemRandomNumberGenerator()
        for round in 0..<Self.maximumKills where kills < 100 || midSave < Self.requiredMidSave {
            let process = Process()
            process.executableURL = probe
            process.arguments = [folder.url.path, String(round * 1_000_000), "4"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let reader = output.fileHandleForReading
            var said = Data()
            // Wait until it is running commands, then let it run a little.
            while !String(decoding: said, as: UTF8.self).contains("\nA ") {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                said.append(chunk)
            }
            try await Task.sleep(for: .microseconds(Int.random(in: 0...20_000, using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            said.append(reader.readDataToEndOfFile())
            #expect(process.terminationReason == .uncaughtSignal, "round \(round): the probe ended on its own")
            kills += 1
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
            if entries.contains(where: { $0 != "log.json" && !$0.hasSuffix(".lock") }) { midSave += 1 }
            for line in String(decoding: said, as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let id = Int(parts[1]) else { continue }
                if parts[0] == "S" { started.insert(id) }
                if parts[0] == "A" { announced.insert(id) }
            }
            let saved = try JSONDecoder().decode(ProbeLog.self, from: Data(contentsOf: file))
            let ids = Set(saved.ids)
            #expect(saved.ids.count == ids.count, "round \(round): an id was saved twice")
            #expect(announced.isSubset(of: ids), "round \(round): an announced change is missing from the file")
            #expect(ids.isSubset(of: started), "round \(round): the file holds a change that was never run")
            if !announced.isSubset(of: ids) || !ids.isSubset(of: started) { break }
        }
        print("AppCore crash test: \(kills) kills, \(midSave) mid-save, \(announced.count) changes announced")
        #expect(kills >= 100)
        // Saves are most of what the probe does; enough kills must land inside one, or the test
        // proves nothing about them.
        #expect(midSave >= Self.requiredMidSave, "only \(midSave) of \(kills) kills landed mid-save")
        #expect(announced.count > 100)
    }
}
