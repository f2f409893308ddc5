import Boilerplate
import Foundation

/// Benchmarks of `AppCore.run` with file persistence against the code people write by hand:
/// mutate a struct under a lock, encode it with `JSONEncoder`, write it atomically. Both sides
/// have the same durability: a temporary file, `fsync`, rename (`Durability.file`).
///
/// - `run-file-sequential`: 20 commands one after another.
/// - `run-file-16-concurrent`: 16 tasks run 5 commands each at once. The peer holds its lock
///   across each write, so every command waits for one `fsync`; AppCore saves the changes made
///   during a save together in the next one (group commit).
enum AppCoreBenchmarks {
    struct Notes: Codable, Sendable, Equatable {
        var notes: [String] = (0..<100).map { "Note \($0) with a line of text" }
        var count = 0
    }

    struct AddNote: Command {
        func execute(_ model: inout Notes) throws {
            model.count += 1
            model.notes[model.count % model.notes.count] = "Note edited \(model.count) times"
        }
    }

    static func cases() async throws -> [BenchmarkCase] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appcore-bench-\(UUID().uuidString)")
        let ours = try await AppCore(
            model: Notes(), persistence: .file("notes.json", in: .custom(folder.appendingPathComponent("ours"))))
        let theirs = try HandWritten(file: folder.appendingPathComponent("theirs/notes.json"))
        return [
            BenchmarkCase(
                suite: "appcore", name: "run-file-sequential", peer: "lock + JSONEncoder + atomic write (fsync)",
                target: 1,
                ours: { for _ in 0..<20 { try await ours.run(AddNote()) } },
                theirs: { for _ in 0..<20 { try theirs.run(AddNote()) } }),
            BenchmarkCase(
                suite: "appcore", name: "run-file-16-concurrent", peer: "the same, behind one lock", target: 1,
                ours: {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for _ in 0..<16 { group.addTask { for _ in 0..<5 { try await ours.run(AddNote()) } } }
                        try await group.waitForAll()
                    }
                },
                theirs: {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for _ in 0..<16 { group.addTask { for _ in 0..<5 { try theirs.run(AddNote()) } } }
                        try await group.waitForAll()
                    }
                }),
        ]
    }

    /// The peer: what an app writes without the kit.
    final class HandWritten: @unchecked Sendable {
        private let lock = NSLock()
        private var model = Notes()
        private let file: URL
        private let encoder = JSONEncoder()

        init(file: URL) throws {
            self.file = file
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        }

        func run(_ command: AddNote) throws {
            lock.lock()
            defer { lock.unlock() }
            var new = model
            try command.execute(&new)
            try Self.writeAtomically(encoder.encode(new), to: file)
            model = new
        }

        /// A temporary file, `fsync`, rename: `Durability.file`.
        static func writeAtomically(_ data: Data, to url: URL) throws {
            let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            defer { close(descriptor) }
            let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == data.count, fsync(descriptor) == 0, rename(temporary.path, url.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
    }
}
