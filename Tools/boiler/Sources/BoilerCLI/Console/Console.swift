import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Prints the CLI's step list: ✓ marks, colour only on a terminal, nothing but errors when quiet.
public struct Console: Sendable {
    /// Whether only errors are printed.
    public var quiet: Bool
    /// Whether ANSI colour is used (standard output is a terminal and `NO_COLOR` is unset).
    public var colour: Bool

    /// A console for this process.
    public init(quiet: Bool = false) {
        self.quiet = quiet
        self.colour = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// Whether standard input is a terminal, so that questions may be asked.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// `✓ <text>` for a finished step.
    public func done(_ text: String) { line("\(paint("✓", 32)) \(text)") }

    /// A plain line of output.
    public func line(_ text: String) {
        guard !quiet else { return }
        print(text)
    }

    /// A warning, on standard error, whatever the quiet setting: something the user should fix
    /// that did not stop the command.
    public func warning(_ text: String) {
        FileHandle.standardError.write(Data("\(paint("warning:", 33)) \(text)\n".utf8))
    }

    /// An error, on standard error, whatever the quiet setting.
    public func error(_ text: String) {
        FileHandle.standardError.write(Data("\(paint("error:", 31)) \(text)\n".utf8))
    }

    /// The commands to run next, indented.
    public func next(_ commands: [String]) {
        line("\nNext:")
        for command in commands { line("  \(paint(command, 1))") }
    }

    func paint(_ text: String, _ code: Int) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
