import Errors
import Foundation
import Testing

enum LoginError: AppError, Equatable {
    case invalidCredentials, locked(minutes: Int)
    var message: String {
        switch self {
        case .invalidCredentials: "Invalid email and password."
        case .locked(let m): "Account locked for \(m) minutes."
        }
    }
}

struct QuotaExceeded: AppError {
    var message: String { "You have used all 10 GB." }
    var code: String { "quota.exceeded" }
    static var errorDomain: String { "com.example.quota" }
}

enum DescribedError: AppError, CustomStringConvertible {
    case plain
    var message: String { "Plain." }
    var description: String { "custom description" }
}

@Suite("AppError")
struct AppErrorTests {
    @Test("the default code is the type and case name, whatever the payload")
    func derivedCodes() {
        #expect(LoginError.invalidCredentials.code == "LoginError.invalidCredentials")
        #expect(LoginError.locked(minutes: 5).code == "LoginError.locked")
        #expect(LoginError.locked(minutes: 9).code == LoginError.locked(minutes: 5).code)
    }

    @Test("a struct's default code is its type name; a type may pin its own code and domain")
    func overriddenCodes() {
        #expect(MessageError("x").code == "MessageError")
        #expect(QuotaExceeded().code == "quota.exceeded")
        #expect(QuotaExceeded().domain == "com.example.quota")
        #expect((QuotaExceeded() as NSError).domain == "com.example.quota")
    }

    @Test("a type with its own description falls back to the type name rather than the description")
    func customDescriptionCode() {
        #expect(DescribedError.plain.code == "DescribedError")
    }

    @Test("the default domain is the module-qualified type name")
    func defaultDomain() {
        #expect(LoginError.invalidCredentials.domain == "ErrorsTests.LoginError")
    }

    @Test("bridging to NSError keeps the message, the domain and a stable numeric code")
    func bridging() {
        let ns = LoginError.locked(minutes: 5) as NSError
        #expect(ns.localizedDescription == "Account locked for 5 minutes.")
        #expect(ns.domain == "ErrorsTests.LoginError")
        #expect(ns.code == (LoginError.locked(minutes: 1) as NSError).code)
        #expect(ns.code != (LoginError.invalidCredentials as NSError).code)
        #expect(ns.code >= 0)
        #expect(ns.userInfo["AppErrorCode"] as? String == "LoginError.locked")
    }

    @Test("localizedDescription of an AppError is its message")
    func localizedDescription() {
        let error: any Error = LoginError.invalidCredentials
        #expect(error.localizedDescription == "Invalid email and password.")
    }

    @Test("a message error remembers where it was created and compares by message and code")
    func messageError() {
        let a = MessageError("Bad input.")
        let b = MessageError("Bad input.")
        #expect(a == b)
        #expect(a != MessageError("Bad input.", code: "input.bad"))
        #expect(a.sourceLocation?.fileID == "ErrorsTests/AppErrorTests.swift")
        #expect(a.sourceLocation?.line == b.sourceLocation.map { $0.line - 1 })
    }
}
