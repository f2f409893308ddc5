import Foundation

/// Runs the `boiler` binary built beside this test bundle, or any other program.
struct BoilerProcess {
    struct Result {
        var status: Int32
        var output: String
    }

    /// The repository root: this file is `Tests/EndToEndTests/BoilerProcess.swift`.
    static let kitRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `boiler`, next to the test bundle in the build products folder.
    static var boiler: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("boiler")
    }

    static func boiler(_ arguments: [String], in folder: URL) async throws -> Result {
        try await run(boiler, arguments, in: folder)
    }

    /// Runs `program` in `folder` with `NO_COLOR` set; `input`, if any, is its standard input,
    /// which is otherwise empty (never the test runner's terminal: a run must not stop to ask).
    ///
    /// A child can run for minutes (a build), so it is waited for on a thread of its own. Waiting
    /// on a thread of Swift concurrency's pool, which has one per core, would hold it from every
    /// other suite meanwhile: on a loaded machine a server test then waited 60 s for a turn to
    /// read a line its server had long printed.
    static func run(
        _ program: URL, _ arguments: [String], in folder: URL, input: String? = nil,
        environment extra: [String: String] = [:]
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Swift.Result {
                        try runWaiting(program, arguments, in: folder, input: input, environment: extra)
                    })
            }.start()
        }
    }

    /// ``run(_:_:in:input:)`` on the calling thread, which it blocks until the child exits.
    private static func runWaiting(
        _ program: URL, _ arguments: [String], in folder: URL, input: String?, environment extra: [String: String]
    ) throws
        -> Result
    {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, given in given }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let typed = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : typed
        try process.run()
        if let input {
            typed.fileHandleForWriting.write(Data(input.utf8))
            try typed.fileHandleForWriting.close()
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// Runs `swift` with `arguments` in `folder`, building in the shared build folder when there is one.
    /// `environment` is added to the test runner's.
    static func swift(
        _ arguments: [String], in folder: URL, environment: [String: String] = [:]
    ) async throws -> Result {
        try await run(
            URL(fileURLWithPath: "/usr/bin/env"), ["swift"] + SharedBuildFolder.swiftArguments(arguments), in: folder,
            environment: environment)
    }
}

/// A fresh folder under the system temp directory.
struct ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("boiler-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
