import Errors
import Foundation
import Testing

private struct DiskFull: Error {}

@Suite("Context, chains and root causes")
struct ChainTests {
    @Test("context wraps an error and records the caller's file and line")
    func contextRecordsLocation() throws {
        let line = #line + 1
        let wrapped = LoginError.invalidCredentials.context("Signing in")
        #expect(wrapped.location.fileID == "ErrorsTests/ChainTests.swift")
        #expect(wrapped.location.line == line)
        #expect(wrapped.userMessage == "Signing in: Invalid email and password.")
        #expect(wrapped.localizedDescription == "Signing in: Invalid email and password.")
    }

    @Test("the chain lists the outermost error first and the root cause last")
    func chainOrder() throws {
        let error: any Error = LoginError.locked(minutes: 5).context("Signing in").context("Opening the app")
        let chain = error.chain
        #expect(chain.count == 3)
        #expect((chain[0] as? ContextError)?.message == "Opening the app")
        #expect((chain[1] as? ContextError)?.message == "Signing in")
        #expect(chain[2] as? LoginError == .locked(minutes: 5))
        #expect(error.rootCause as? LoginError == .locked(minutes: 5))
        #expect(error.userMessage == "Opening the app: Signing in: Account locked for 5 minutes.")
    }

    @Test("an error that wraps nothing is its own chain and root cause")
    func unwrapped() {
        let error: any Error = DiskFull()
        #expect(error.chain.count == 1)
        #expect(error.rootCause is DiskFull)
    }

    @Test("chains follow NSUnderlyingErrorKey through Foundation errors")
    func foundationChain() {
        let inner = NSError(
            domain: NSPOSIXErrorDomain, code: 28, userInfo: [NSLocalizedDescriptionKey: "No space left"])
        let outer = NSError(domain: NSCocoaErrorDomain, code: 640, userInfo: [NSUnderlyingErrorKey: inner])
        let chain = (outer as any Error).chain
        #expect(chain.count == 2)
        #expect((chain[1] as NSError).code == 28)
        #expect(((outer as any Error).rootCause as NSError).domain == NSPOSIXErrorDomain)
    }

    @Test("bridged context errors carry the underlying error to Foundation")
    func bridgedUnderlying() {
        let ns = LoginError.invalidCredentials.context("Signing in") as NSError
        #expect(ns.localizedDescription == "Signing in: Invalid email and password.")
        let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(underlying?.localizedDescription == "Invalid email and password.")
    }

    @Test("withContext wraps thrown errors and passes values through")
    func withContextHelper() async throws {
        #expect(try withContext("Adding") { 1 + 1 } == 2)
        #expect(throws: ContextError.self) {
            try withContext("Reading settings") { throw DiskFull() }
        }
        do {
            _ = try await withContext("Syncing") { () async throws -> Int in throw LoginError.invalidCredentials }
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "Syncing")
            #expect(error.rootCause as? LoginError == .invalidCredentials)
        }
    }

    @Test("a context's debug description prints the chain with locations")
    func debugDescription() {
        let line = #line + 1
        let error = MessageError("Disk full.", code: "disk.full").context("Saving")
        let text = error.debugDescription
        #expect(text.contains("Saving [ContextError] at ErrorsTests/ChainTests.swift:\(line)"))
        #expect(text.contains("└─ Disk full. [disk.full] at ErrorsTests/ChainTests.swift:\(line)"))
        #expect(String(reflecting: error) == text)
    }
}
