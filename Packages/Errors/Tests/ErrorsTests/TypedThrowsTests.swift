import Errors
import Foundation
import Testing

private func signIn(password: String) throws(LoginError) -> String {
    guard password == "secret" else { throw .invalidCredentials }
    return "session"
}

private func openAccount() throws(ContextError) -> String {
    try withContext("Opening the account") { () throws(LoginError) -> String in try signIn(password: "wrong") }
}

@Suite("Typed throws")
struct TypedThrowsTests {
    @Test("a typed error offers message, code, context, chain and bridging")
    func typedErrorAPI() {
        do {
            _ = try signIn(password: "guess")
        } catch {
            let typed: LoginError = error
            #expect(typed.message == "Invalid email and password.")
            #expect(typed.code == "LoginError.invalidCredentials")
            #expect(typed.context("Signing in").userMessage == "Signing in: Invalid email and password.")
            #expect(typed.chain.count == 1)
            #expect((typed as NSError).localizedDescription == "Invalid email and password.")
        }
    }

    @Test("withContext turns a typed error into a typed context error")
    func typedContext() {
        do {
            _ = try openAccount()
        } catch {
            let typed: ContextError = error
            #expect(typed.rootCause as? LoginError == .invalidCredentials)
            #expect(typed.report.code == "LoginError.invalidCredentials")
        }
    }
}
