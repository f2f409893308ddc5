import Foundation

/// Runs the few programs the CLI needs (git, swift), with their output captured.
enum Shell {
    /// Runs `arguments` in `folder`; throws with the output when it fails.
    static func run(_ arguments: [String], in folder: URL) throws(BoilerError) {
        _ = try output(arguments, in: folder)
    }

    /// Runs `arguments` in `folder` and returns standard output and error together.
    static func output(_ arguments: [String], in folder: URL) throws(BoilerError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let command = arguments.joined(separator: " ")
        do {
            try process.run()
        } catch {
            throw .commandFailed(command: command, status: -1, output: error.userMessage)
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw .commandFailed(command: command, status: process.terminationStatus, output: text)
        }
        return text
    }
}
