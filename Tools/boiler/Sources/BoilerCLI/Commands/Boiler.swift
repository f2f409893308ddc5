import ArgumentParser

/// The `boiler` command: scaffolds projects on the Boilerplate kit and extends them.
public struct Boiler: AsyncParsableCommand {
    /// The command's name, help and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "boiler",
        abstract: "Start Swift projects with the Boilerplate architecture wired in.",
        // The first line is the version alone, for scripts; the second says which kit `boiler new`
        // will use, since that depends on where this boiler was built and what is still there.
        version: "\(KitVersion.current)\nNew projects use \(DefaultKit.current.summary).",
        subcommands: [NewProject.self, AddPart.self, Update.self, Generate.self, ListTemplates.self, Doctor.self]
    )

    /// Creates the command (ArgumentParser calls this).
    public init() {}
}

/// Runs `body`, turning a ``BoilerError`` into its message on standard error and its exit code.
func reportingErrors(_ console: Console, _ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as BoilerError {
        console.error(error.message)
        throw ExitCode(error.exitCode)
    }
}
