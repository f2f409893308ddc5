import Foundation
import Testing
import _KitSupport

@testable import Boilerplate

/// Collects what a sink is given.
final class CollectedLog: Sendable {
    private let collected = Locked<[LogSink.Entry]>([])
    var entries: [LogSink.Entry] { collected.withLock { $0 } }
    func sink(minimumLevel: LogSink.Level = .trace) -> LogSink {
        LogSink(minimumLevel: minimumLevel) { [collected] entry in collected.withLock { $0.append(entry) } }
    }
}

@Suite("LogSink: the kit's logging")
struct LogSinkTests {
    @Test("entries below the minimum level are dropped without building their message")
    func minimumLevel() {
        let log = CollectedLog()
        let sink = log.sink(minimumLevel: .warning)
        let built = Locked(0)
        func message(_ text: String) -> String {
            built.withLock { $0 += 1 }
            return text
        }
        sink.log(.info, message("quiet"), source: "Test")
        sink.log(.error, message("loud"), metadata: ["k": "v"], source: "Test")
        #expect(log.entries == [LogSink.Entry(level: .error, message: "loud", metadata: ["k": "v"], source: "Test")])
        #expect(built.withLock { $0 } == 1)
        #expect(!sink.isEnabled(.info) && sink.isEnabled(.critical))
        #expect(!LogSink.discard.isEnabled(.critical))
        LogSink.discard.log(.critical, message("dropped"), source: "Test")
        #expect(built.withLock { $0 } == 1)
    }

    @Test("an entry formats as one line with its metadata sorted")
    func formatted() {
        let entry = LogSink.Entry(level: .warning, message: "slow", metadata: ["b": "2", "a": "1"], source: "Services")
        #expect(entry.formatted == "warning [Services] slow a=1 b=2")
    }

    @Test("services log their starts, stops and a shutdown's outcome")
    func serviceEvents() async throws {
        let log = CollectedLog()
        let journal = ServiceJournal()
        let services = ServiceRegistry(log: log.sink())
        services.register("a") { ScriptedService("a", journal: journal) }
        services.register("b", dependsOn: ["a"], stopTimeout: .milliseconds(100)) {
            ScriptedService("b", journal: journal, stopHangs: true)
        }
        services.requestShutdown()
        let report = try await services.run(signals: [])
        #expect(report.timedOut == ["b"])
        let lines = log.entries.map { "\($0.level) \($0.metadata["service"] ?? "-") \($0.message)" }
        #expect(
            lines.prefix(3) == [
                "info a Service 'a' started", "info b Service 'b' started",
                "notice - Shutting down 2 service(s) (shutdown requested)",
            ])
        #expect(lines.contains("error b Service 'b' did not stop within 0.1 seconds"))
        #expect(lines.contains("info a Service 'a' stopped"))
        let last = try #require(log.entries.last)
        #expect(last.level == .error && last.metadata["timedOut"] == "b" && last.source == "Services")
    }

    @Test("AppCore logs a model it cannot load and a change it cannot save")
    func appCoreFailures() async throws {
        let folder = try AppFolder()
        defer { folder.remove() }
        let log = CollectedLog()
        let app = try await AppCore(model: ScoredNotebook(), persistence: folder.persistence, log: log.sink())
        await #expect(throws: AppCoreError.self) { try await app.run(SetScore(score: .nan)) }
        let saveFailure = try #require(log.entries.first)
        #expect(saveFailure.level == .error && saveFailure.source == "AppCore")
        #expect(saveFailure.metadata == ["file": "notes.json"])
        #expect(saveFailure.message.hasPrefix("The change was not applied because it could not be saved to notes.json"))

        try await app.run(AddScoredNote(text: "milk"))
        let file = try #require(app.fileStore).url(for: "notes.json")
        try Data("{\"notes\": [".utf8).write(to: file)
        await #expect(throws: AppCoreError.self) {
            _ = try await AppCore(model: ScoredNotebook(), persistence: folder.persistence, log: log.sink())
        }
        let loadFailure = try #require(log.entries.last)
        #expect(loadFailure.level == .error && loadFailure.metadata == ["file": "notes.json"])
        #expect(loadFailure.message.hasPrefix("The saved model in notes.json could not be loaded"))
        #expect(log.entries.count == 2)
    }

    @Test("the HTTP logging interceptor logs requests and responses at its level, failures as errors")
    func interceptor() async throws {
        let log = CollectedLog()
        let interceptor = LoggingInterceptor(log: log.sink(), level: .debug)
        let url = try #require(URL(string: "http://127.0.0.1:9/notes"))
        let request = OutgoingRequest(
            method: .get, url: url, headers: HTTPHeaders([("Authorization", "Bearer secret")]))
        _ = try await interceptor.adapt(request)
        try await interceptor.inspect(
            HTTPResponse(
                status: HTTPStatus(200), headers: HTTPHeaders(), body: Data("ok".utf8), url: url, request: request))
        await interceptor.failed(request, with: URLError(.timedOut))
        let entries = log.entries
        #expect(entries.map(\.level) == [.debug, .debug, .error])
        #expect(entries.allSatisfy { $0.source == "Networking" })
        #expect(entries[0].message == "→ GET http://127.0.0.1:9/notes\n    Authorization: <redacted>")
        #expect(entries[1].message.hasPrefix("← 200 "))
        #expect(entries[1].message.hasSuffix(" http://127.0.0.1:9/notes (2 bytes)"))
        #expect(entries[2].message.hasPrefix("✗ GET http://127.0.0.1:9/notes: "))
    }
}
