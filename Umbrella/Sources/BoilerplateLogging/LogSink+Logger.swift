// The kit's logging, routed to swift-log. A separate product so that the umbrella, which iOS
// apps link, stays Foundation-only.
import Boilerplate
import Logging

extension LogSink {
    /// A sink that writes every entry to `logger`: the level maps one to one, metadata values
    /// become strings, and the entry's source (`Services`, `AppCore`, `Networking`) becomes the
    /// log's `source`. Entries below the logger's level are dropped before they are built.
    ///
    /// ```swift
    /// LoggingSystem.bootstrap(StreamLogHandler.standardError)
    /// let log = LogSink(Logger(label: "notes-server"))
    /// let app = try await AppCore(model: NotesModel(), log: log)
    /// ```
    public init(_ logger: Logger) {
        self.init(minimumLevel: LogSink.Level(logger.logLevel)) { entry in
            logger.log(
                level: Logger.Level(entry.level), "\(entry.message)",
                metadata: entry.metadata.mapValues { .string($0) }, source: entry.source)
        }
    }
}

extension LogSink.Level {
    /// The kit's level for a swift-log level.
    public init(_ level: Logger.Level) {
        switch level {
        case .trace: self = .trace
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}

extension Logger.Level {
    /// The swift-log level for a kit level.
    public init(_ level: LogSink.Level) {
        switch level {
        case .trace: self = .trace
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}
