import Errors
import Foundation
import Testing

@Suite("ErrorReport")
struct ErrorReportTests {
    @Test("captures the message, the root cause's code and the chain")
    func snapshot() {
        let line = #line + 1
        let error = LoginError.locked(minutes: 5).context("Signing in")
        let report = error.report
        #expect(report.message == "Signing in: Account locked for 5 minutes.")
        #expect(report.code == "LoginError.locked")
        #expect(report.domain == "ErrorsTests.LoginError")
        #expect(report.chain.map(\.code) == ["ContextError", "LoginError.locked"])
        #expect(report.chain.map(\.type) == ["ContextError", "LoginError"])
        #expect(report.location == SourceLocation(fileID: "ErrorsTests/ErrorReportTests.swift", line: line))
    }

    @Test("round-trips through JSON")
    func codable() throws {
        let report = ErrorReport(MessageError("Disk full.", code: "disk.full").context("Saving"))
        let data = try JSONEncoder().encode(report)
        let decoded = try JSONDecoder().decode(ErrorReport.self, from: data)
        #expect(decoded == report)
        #expect(decoded.chain[1].message == "Disk full.")
    }

    @Test("Foundation errors report their domain and code")
    func foundation() {
        let report = ErrorReport(URLError(.timedOut))
        #expect(report.code == "\(NSURLErrorDomain).\(URLError.Code.timedOut.rawValue)")
        #expect(report.domain == NSURLErrorDomain)
    }
}
