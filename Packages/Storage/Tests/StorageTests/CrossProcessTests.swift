import Foundation
import Storage
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Mirrors the probe's value: every part repeats the counter.
private struct ProbeValue: Codable, Equatable {
    var counter: Int
    var items: [String]

    var isWhole: Bool { items == (0..<256).map { "item \($0) of save \(counter)" } }
}

private struct ProbeCounter: Codable {
    var count: Int
    var writers: [String: Int]
}

@Suite("Across processes", .serialized)
struct CrossProcessTests {
    @Test("the probe executable is built beside the tests")
    func probeExists() {
        #expect(Probe.url != nil, "StorageCrashProbe not found; set STORAGE_CRASH_PROBE to its path")
    }

    @Test("a save loop killed with SIGKILL at 200 random moments always leaves the old or the new value")
    func crash() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url.path
        var last = 0
        var observedProgress = 0
        var killedMidSave = 0
        for round in 0..<200 {
            let (process, pipe) = try Probe.start(["save-loop", folder, "value.json"])
            // Wait until the child is in its loop (or would be: a failed start ends the pipe).
            _ = pipe.fileHandleForReading.availableData
            // Up to 10 ms: a save takes well under that, so kills land mid-write often.
            usleep(UInt32.random(in: 0...10_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "round \(round): the probe exited by itself")

            if temporary.allFiles().contains(where: { $0.hasSuffix(".tmp") }) { killedMidSave += 1 }
            // The next open removes what the killed save left behind.
            let store = try FileStore(directory: temporary.url)
            let leftovers = temporary.allFiles().filter { $0.hasSuffix(".tmp") }
            #expect(leftovers.isEmpty, "round \(round): \(leftovers)")
            guard store.exists("value.json") else { continue }
            let value = try store.load(ProbeValue.self, from: "value.json")
            #expect(value.isWhole, "round \(round): a mixed value")
            #expect(value.counter >= last, "round \(round): went back from \(last) to \(value.counter)")
            if value.counter > last { observedProgress += 1 }
            last = value.counter
        }
        // The kills must have landed while saves were happening, not only before the first.
        #expect(observedProgress > 0)
        print("crash test: \(observedProgress) rounds advanced, \(killedMidSave) kills left a temporary file")
        #expect(temporary.allFiles().allSatisfy { !$0.contains(".corrupt-") })
    }

    @Test("two processes alternating Persisted updates lose none")
    func twoProcesses() throws {
        let temporary = try TemporaryFolder()
        let arguments = ["increment", temporary.url.path, "counter.json", "300"]
        let (first, firstPipe) = try Probe.start(arguments)
        let (second, secondPipe) = try Probe.start(arguments)
        _ = firstPipe.fileHandleForReading.readDataToEndOfFile()
        _ = secondPipe.fileHandleForReading.readDataToEndOfFile()
        first.waitUntilExit()
        second.waitUntilExit()
        #expect(first.terminationStatus == 0)
        #expect(second.terminationStatus == 0)
        let store = try FileStore(directory: temporary.url)
        let counter = try store.load(ProbeCounter.self, from: "counter.json")
        #expect(counter.count == 600)
        #expect(counter.writers.values.sorted() == [300, 300])
    }

    @Test("a full disk (a file-size limit) fails the save with a typed error and keeps the old file")
    func fullDisk() throws {
        let temporary = try TemporaryFolder()
        let store = try FileStore(directory: temporary.url)
        try store.save(SettingsV1(theme: "kept"), as: "value.json")
        let result = try Probe.run(["fill", temporary.url.path, "value.json", "1024"])
        #expect(result.status == 0)
        #expect(result.output.contains("error StorageError.unwritable"), "\(result.output)")
        #expect(try store.load(SettingsV1.self, from: "value.json").theme == "kept")
        _ = try FileStore(directory: temporary.url)
        #expect(temporary.allFiles().filter { $0.hasSuffix(".tmp") }.isEmpty)
    }
}
