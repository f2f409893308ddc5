import Boilerplate
import BoilerplateLogging
import Foundation
import Logging
import Testing

/// A swift-log handler that keeps what it is given, source included.
struct CapturingHandler: LogHandler {
    struct Record: Equatable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
        var source: String
    }
    final class Records: @unchecked Sendable {
        private let lock = NSLock()
        private var records: [Record] = []
        func append(_ record: Record) { lock.withLock { records.append(record) } }
        var all: [Record] { lock.withLock { records } }
    }

    let records: Records
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.append(
            Record(
                level: event.level, message: "\(event.message)",
                metadata: (event.metadata ?? [:]).mapValues { "\($0)" }, source: event.source))
    }
}

func capturingLogger(level: Logger.Level = .trace) -> (Logger, CapturingHandler.Records) {
    let records = CapturingHandler.Records()
    var logger = Logger(label: "test") { _ in CapturingHandler(records: records) }
    logger.logLevel = level
    return (logger, records)
}

@Suite("BoilerplateLogging: LogSink to swift-log")
struct LogSinkToLoggerTests {
    @Test("every level, the message, metadata and source reach the Logger")
    func entriesReachTheLogger() {
        let (logger, records) = capturingLogger()
        let sink = LogSink(logger)
        for level in LogSink.Level.allCases {
            sink.log(level, "at \(level)", metadata: ["service": "sync"], source: "Services")
        }
        #expect(records.all.map(\.level) == [.trace, .debug, .info, .notice, .warning, .error, .critical])
        #expect(
            records.all.first
                == .init(level: .trace, message: "at trace", metadata: ["service": "sync"], source: "Services"))
        #expect(LogSink.Level.allCases.allSatisfy { LogSink.Level(Logger.Level($0)) == $0 })
    }

    @Test("entries below the logger's level are dropped before they are built")
    func loggerLevel() {
        let (logger, records) = capturingLogger(level: .warning)
        let sink = LogSink(logger)
        #expect(sink.minimumLevel == .warning)
        #expect(!sink.isEnabled(.info))
        sink.log(.info, "quiet", source: "Test")
        sink.log(.error, "loud", source: "Test")
        #expect(records.all.map(\.message) == ["loud"])
    }

    @Test("a registry's lifecycle events arrive in swift-log")
    func registryEvents() async throws {
        let (logger, records) = capturingLogger(level: .info)
        let services = ServiceRegistry(log: LogSink(logger))
        services.register("clock") { Idle() }
        try await services.start("clock")
        try await services.stop("clock")
        #expect(records.all.map(\.message) == ["Service 'clock' started", "Service 'clock' stopped"])
        #expect(records.all.allSatisfy { $0.source == "Services" && $0.metadata == ["service": "clock"] })
    }
}

final class Idle: AppService {
    func start(options: [String: any Sendable]) async throws {}
    func stop() async throws {}
}
