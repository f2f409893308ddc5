import Foundation
import Storage
import Testing

/// A fresh temporary folder per test, deleted when the value is.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "StorageTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A store in this folder (or a subfolder).
    func store(_ subfolder: String? = nil, durability: Durability = .file) throws -> FileStore {
        try FileStore(
            directory: subfolder.map { url.appendingPathComponent($0, isDirectory: true) } ?? url,
            durability: durability)
    }

    /// Every file name in the folder, recursively, including hidden ones.
    func allFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String { names.append(name) }
        return names.sorted()
    }

    func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func read(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: url.appendingPathComponent(name)), as: UTF8.self)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Settings as an app's first version saved them.
struct SettingsV1: Codable, Equatable, Sendable {
    var theme = "light"
    var fontSize = 14
}

/// Settings after an update added keys, one of them nested.
struct SettingsV2: Codable, Equatable, Sendable {
    struct Sync: Codable, Equatable, Sendable {
        var enabled = false
        var interval = 60
    }
    var theme = "light"
    var fontSize = 14
    var language = "en"
    var sync = Sync()
}

/// The executable the cross-process tests start: built beside the test bundle.
enum Probe {
    static var url: URL? {
        if let path = ProcessInfo.processInfo.environment["STORAGE_CRASH_PROBE"] {
            return URL(fileURLWithPath: path)
        }
        var folders: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        #if os(Linux)
            if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
            }
        #endif
        folders.append(Bundle.main.bundleURL)
        for folder in folders {
            let candidate = folder.appendingPathComponent("StorageCrashProbe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Starts the probe with `arguments`; stdout is piped.
    static func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = try url.orThrow()
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        return (process, pipe)
    }

    /// Runs the probe to its end and returns its standard output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let (process, pipe) = try start(arguments)
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

struct MissingProbe: Error {}

extension Optional {
    func orThrow() throws -> Wrapped {
        guard let self else { throw MissingProbe() }
        return self
    }
}

/// The record backends the shared record tests run against: a file in a temporary folder, and
/// memory (``InMemoryRecordBackend``), which must behave the same.
enum RecordBackendKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case file, memory

    var testDescription: String { rawValue }

    /// A store named `file`: that file in `temporary`, or a fresh in-memory collection.
    func store<R: Codable & Identifiable & Sendable>(
        _ file: String, in temporary: TemporaryFolder, durability: Durability = .none
    ) throws -> RecordStore<R> where R.ID: Codable & Sendable {
        switch self {
        case .file: try RecordStore<R>(file: file, in: temporary.store(durability: durability))
        case .memory: RecordStore<R>.inMemory(name: file)
        }
    }
}
