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

    /// Where a SIGKILL landed in the probe's save loop, from its progress record and the files.
    enum Landing: String, CaseIterable {
        /// After a save returned, before the next began (or before the first).
        case betweenSaves = "between saves"
        /// Inside a save, before its temporary file existed (encoding, resolving the key).
        case beforeTemporary = "in a save, before its temporary file"
        /// Inside a save, between creating the temporary file and the rename: the window the
        /// atomic save exists for.
        case midSave = "in a save, between creating the temporary file and the rename"
        /// Inside a save, after the rename, before the save returned.
        case afterRename = "in a save, after the rename"
    }

    @Test("SIGKILL at 200 random moments of a save loop, many mid-save, always leaves the old or the new value")
    func crash() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url.appendingPathComponent("store", isDirectory: true)
        let progress = temporary.url.appendingPathComponent("progress")
        var landings: [Landing: Int] = [:]
        let rounds = 200
        for round in 0..<rounds {
            let (process, pipe) = try Probe.start(["save-loop", folder.path, "value.json", progress.path])
            // Wait until the child is in its loop (or would be: a failed start ends the pipe).
            _ = pipe.fileHandleForReading.availableData
            // Up to 10 ms: a durable save takes a good part of that, so kills land mid-save often.
            usleep(UInt32.random(in: 0...10_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "round \(round): the probe exited by itself")

            // The probe's record: the save it started last and the one it finished last.
            let record = try Data(contentsOf: progress)
            try #require(record.count == 16, "round \(round): no progress record")
            let started = Int(Int64(littleEndian: record.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) }))
            let finished = Int(
                Int64(littleEndian: record.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8, as: Int64.self) }))
            #expect(finished == started || finished == started - 1, "round \(round): \(started), \(finished)")
            let temporaries =
                (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?
                .filter { $0.hasSuffix(".tmp") } ?? []

            // The next open removes what the killed save left behind.
            let store = try FileStore(directory: folder)
            let leftovers = temporary.allFiles().filter { $0.hasSuffix(".tmp") }
            #expect(leftovers.isEmpty, "round \(round): \(leftovers)")
            var found: Int?
            if store.exists("value.json") {
                let value = try store.load(ProbeValue.self, from: "value.json")
                #expect(value.isWhole, "round \(round): a mixed value")
                found = value.counter
            }
            // Old or new: the file holds the last finished save, or the one in progress if its
            // rename happened before the kill; never anything else (and nothing only before the first).
            #expect(
                found == finished || found == started || (found == nil && finished == 0),
                "round \(round): found \(String(describing: found)), started \(started), finished \(finished)")

            let landing: Landing =
                if finished == started { .betweenSaves } else if !temporaries.isEmpty {
                    .midSave
                } else if found
                    == started
                { .afterRename } else { .beforeTemporary }
            landings[landing, default: 0] += 1
        }
        let summary = Landing.allCases.map { "\($0.rawValue): \(landings[$0] ?? 0)" }.joined(separator: ", ")
        print("crash test, where \(rounds) kills landed: \(summary)")
        // The test proves something only if kills hit the window between creating the temporary
        // file and the rename; a durable save spends most of its time there (writing, flushing).
        #expect((landings[.midSave] ?? 0) * 4 >= rounds, "too few kills landed mid-save: \(summary)")
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
