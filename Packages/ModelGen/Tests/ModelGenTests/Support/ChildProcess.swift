import Foundation

/// Runs a tool (`swift build`, `swiftc -typecheck`, a built executable) for the suites that
/// prove generated code compiles and runs: its status and its standard output and error as one
/// text, read to the end before waiting, so a chatty compiler cannot fill the pipe and stall.
enum ChildProcess {
    /// Runs `arguments` through `/usr/bin/env` (so `swift` and `swiftc` come from PATH) in
    /// `folder`, or in the current folder when nil.
    ///
    /// A build runs for minutes, so it is waited for on a thread of its own: a thread of Swift
    /// concurrency's pool (one per core) would be held from every other suite meanwhile.
    static func run(_ arguments: [String], in folder: URL? = nil) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try runWaiting(arguments, in: folder) }) }.start()
        }
    }

    /// ``run(_:in:)`` on the calling thread, which it blocks until the child exits.
    private static func runWaiting(_ arguments: [String], in folder: URL?) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
