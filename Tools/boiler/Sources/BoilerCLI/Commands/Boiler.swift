import ArgumentParser

/// The `boiler` command: scaffolds projects on the Boilerplate kit and extends them.
public struct Boiler: AsyncParsableCommand {
    /// The command's name, help and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "boiler",
        abstract: "Start Swift projects with the Boilerplate architecture wired in.",
        version: KitVersion.current,
        subcommands: [NewProject.self, AddPart.self, Generate.self, ListTemplates.self, Doctor.self]
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
