import Foundation

/// Where the kit's log entries go: service lifecycle events, the HTTP log of a
/// `LoggingInterceptor(log:level:)`, and ``AppCore``'s load and save failures.
///
/// A value with one function inside, so the core needs nothing beyond Foundation: the
/// `BoilerplateLogging` add-on makes one that writes to a swift-log `Logger`, and a test can
/// make one that collects entries. The default is ``discard``.
///
/// ```swift
/// let log = LogSink.standardError(minimumLevel: .info)
/// let app = try await AppCore(model: NotesModel(), log: log)
/// ```
public struct LogSink: Sendable {
    /// How much an entry matters; the same seven levels as swift-log's `Logger.Level`.
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        /// Step-by-step detail, for tracing a problem.
        case trace
        /// Detail for developers.
        case debug
        /// Something happened as expected: a service started.
        case info
        /// Something noteworthy but normal: a shutdown began.
        case notice
        /// Something went wrong and was handled.
        case warning
        /// Something failed: a save, a service's stop.
        case error
        /// Something failed that the app cannot carry on from.
        case critical

        /// Levels order by importance.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The level's name, such as `warning`.
        public var description: String {
            switch self {
            case .trace: "trace"
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .warning: "warning"
            case .error: "error"
            case .critical: "critical"
            }
        }
    }

    /// One log entry.
    public struct Entry: Sendable, Equatable {
        /// How much it matters.
        public var level: Level
        /// What happened, in words.
        public var message: String
        /// Facts about it as key–value pairs, such as `["service": "sync"]`.
        public var metadata: [String: String]
        /// The part of the kit it comes from: `Services`, `AppCore` or `Networking`.
        public var source: String

        /// An entry.
        public init(level: Level, message: String, metadata: [String: String] = [:], source: String) {
            self.level = level
            self.message = message
            self.metadata = metadata
            self.source = source
        }
    }

    /// Entries below this level are dropped before their message is built.
    public let minimumLevel: Level
    private let write: (@Sendable (Entry) -> Void)?

    /// A sink that passes each entry at `minimumLevel` or above to `write`, on the caller's
    /// thread; `write` must be quick and must not block.
    public init(minimumLevel: Level = .trace, _ write: @escaping @Sendable (Entry) -> Void) {
        self.minimumLevel = minimumLevel
        self.write = write
    }

    private init() {
        minimumLevel = .critical
        write = nil
    }

    /// Drops every entry: the default wherever the kit takes a sink.
    public static let discard = LogSink()

    /// Writes `LEVEL [source] message key=value…` lines to standard error, one write each.
    public static func standardError(minimumLevel: Level = .info) -> LogSink {
        LogSink(minimumLevel: minimumLevel) { entry in
            FileHandle.standardError.write(Data((entry.formatted + "\n").utf8))
        }
    }

    /// Whether an entry at `level` would be written.
    public func isEnabled(_ level: Level) -> Bool { write != nil && level >= minimumLevel }

    /// Writes an entry; the message and metadata are only built when `level` is enabled.
    public func log(
        _ level: Level, _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> [String: String] = [:], source: String
    ) {
        guard let write, level >= minimumLevel else { return }
        write(Entry(level: level, message: message(), metadata: metadata(), source: source))
    }
}

extension LogSink.Entry {
    /// The entry as one line: `warning [Services] Service 'b' did not stop in time service=b`.
    public var formatted: String {
        let facts = metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        return "\(level) [\(source)] \(message)\(facts)"
    }
}
