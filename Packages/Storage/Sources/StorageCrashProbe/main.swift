// A child process for Storage's crash and cross-process tests. Not part of the library.
//
//   StorageCrashProbe save-loop <folder> <key> [progress]  save ever-larger counters until
//                                                     killed, recording each save's start and end
//   StorageCrashProbe increment <folder> <key> <n>    n Persisted updates of a shared counter
//   StorageCrashProbe fill <folder> <key> <bytes>     save under a file-size limit of <bytes>
//   StorageCrashProbe save-times <folder> <key> <none|file|fileAndFolder> <n>
//                                                     n saves at that durability (traced by tests)
//   StorageCrashProbe lock-combos <folder> <key>      nest every locking API in every other on a
//                                                     corrupt file; prints "finished" (or hangs)
import Foundation
import Storage

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A value whose every part repeats its counter, so a torn or mixed file cannot pass `isWhole`.
struct ProbeValue: Codable, Sendable, Equatable {
    var counter: Int
    var items: [String]

    init(counter: Int) {
        self.counter = counter
        self.items = (0..<256).map { "item \($0) of save \(counter)" }
    }

    var isWhole: Bool { self == ProbeValue(counter: counter) }
}

/// The shared counter of the `increment` mode.
struct ProbeCounter: Codable, Sendable {
    var count = 0
    var writers: [String: Int] = [:]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else { fail("usage: StorageCrashProbe save-loop|increment|fill <folder> <key> [n]") }
let folder = URL(fileURLWithPath: arguments[2], isDirectory: true)
let key = arguments[3]

do {
    let store = try FileStore(directory: folder)
    switch arguments[1] {
    case "save-loop":
        var counter = (try? store.load(ProbeValue.self, from: key))?.counter ?? 0
        // Where a kill lands: before each save the probe writes the counter it starts at offset 0
        // of the progress file, after it the counter it finished at offset 8. A `pwrite` that
        // returned is in the kernel's page cache, so SIGKILL cannot undo it.
        let progress = arguments.count > 4 ? open(arguments[4], O_WRONLY | O_CREAT | O_TRUNC, 0o644) : -1
        func record(_ value: Int, at offset: off_t) {
            guard progress >= 0 else { return }
            var number = Int64(value).littleEndian
            _ = withUnsafeBytes(of: &number) { pwrite(progress, $0.baseAddress, 8, offset) }
        }
        record(counter, at: 0)
        record(counter, at: 8)
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        while true {
            counter += 1
            record(counter, at: 0)
            try store.save(ProbeValue(counter: counter), as: key)
            record(counter, at: 8)
        }
    case "increment":
        let times = Int(arguments.count > 4 ? arguments[4] : "") ?? 100
        let me = String(getpid())
        let counter = try await Persisted<ProbeCounter>(file: key, in: store, defaults: ProbeCounter())
        for _ in 0..<times {
            try await counter.update {
                $0.count += 1
                $0.writers[me, default: 0] += 1
            }
        }
        print("done \(await counter.value.count)")
    case "fill":
        let limit = Int(arguments.count > 4 ? arguments[4] : "") ?? 4096
        signal(SIGXFSZ, SIG_IGN)  // report EFBIG instead of dying
        var rlimit = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
        #if canImport(Glibc)
            guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &rlimit) == 0 else { fail("setrlimit failed") }
        #else
            guard setrlimit(RLIMIT_FSIZE, &rlimit) == 0 else { fail("setrlimit failed") }
        #endif
        do {
            try store.save(ProbeValue(counter: 1_000_000), as: key)
            print("saved")
        } catch {
            print("error \(error.code)")
        }
    case "save-times":
        let levels: [String: Durability] = ["none": .none, "file": .file, "fileAndFolder": .fileAndFolder]
        guard arguments.count > 5, let durability = levels[arguments[4]], let times = Int(arguments[5]) else {
            fail("usage: StorageCrashProbe save-times <folder> <key> <none|file|fileAndFolder> <n>")
        }
        var durable = store
        durable.durability = durability
        for counter in 1...times { try durable.save(ProbeValue(counter: counter), as: key) }
        print("saved \(times)")
    case "lock-combos":
        try await lockCombos(store: store, key: key)
        print("finished")
    default:
        fail("unknown mode \(arguments[1])")
    }
} catch {
    fail("error: \(error)")
}

/// Every nesting of the locking APIs on one key whose file is corrupt: each inner call loads
/// (and so quarantines) while the outer one holds the key's lock. Before the lock was re-entrant
/// the first of these blocked forever on the process's own `flock`.
func lockCombos(store: FileStore, key: String) async throws {
    let corrupt = Data("{ not json".utf8)
    func expectCorrupt(_ body: () throws -> Void) throws {
        do {
            try body()
            fail("a corrupt file loaded")
        } catch StorageError.corrupt(_, let moved?, _) {
            // Put it back aside for the next combination: quarantine must have moved it.
            try FileManager.default.removeItem(at: moved)
        }
    }
    try store.save(data: corrupt, as: key)
    try expectCorrupt { try store.withLock(key) { _ = try store.load(ProbeCounter.self, from: key) } }
    try store.save(data: corrupt, as: key)
    try expectCorrupt {
        try store.withLock(key) { try store.withLock(key) { _ = try store.load(ProbeCounter.self, from: key) } }
    }
    try store.save(ProbeCounter(), as: key)
    let counter = try await Persisted<ProbeCounter>(file: key, in: store, defaults: ProbeCounter())
    try await counter.update { value in
        try store.withLock(key) { value.count += 1 }
        value.count += try store.load(ProbeCounter.self, from: key).count
    }
    try store.save(data: corrupt, as: key)
    do {
        try await counter.update { $0.count += 1 }
        fail("an update merged over a corrupt file")
    } catch StorageError.corrupt(_, let moved?, _) {
        try FileManager.default.removeItem(at: moved)
    }
}
