import Foundation

/// Runs a tool (`swift build`, `swiftc -typecheck`, a built executable) for the suites that
/// prove generated code compiles and runs: its status and its standard output and error as one
/// text, read to the end before waiting, so a chatty compiler cannot fill the pipe and stall.
enum ChildProcess {
    /// Runs `arguments` through `/usr/bin/env` (so `swift` and `swiftc` come from PATH) in
    /// `folder`, or in the current folder when nil.
    static func run(_ arguments: [String], in folder: URL? = nil) throws -> (status: Int32, output: String) {
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
