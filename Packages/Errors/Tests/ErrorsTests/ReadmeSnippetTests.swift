// swift-format-ignore-file
// The snippet is kept exactly as written, so the formatter leaves this file alone.
import Errors
import Foundation
import Testing

// The snippet, unchanged, inside a function so the test can run it.
private struct ProfileFileMissing: Error, LocalizedError {
    var errorDescription: String? { "profile.json does not exist." }
}
private func readProfileFile() throws { throw ProfileFileMissing() }

private func snippet() -> [String] {
    var printed: [String] = []
    func print(_ text: String) { printed.append(text) }

    let e = MessageError("Invalid email and password.")          // message-only error
    assert(e.message == "Invalid email and password.")

    enum LoginError: AppError {                                   // your own errors describe themselves
        case invalidCredentials, locked(minutes: Int)
        var message: String {
            switch self {
            case .invalidCredentials: "Invalid email and password."
            case .locked(let m): "Account locked for \(m) minutes."
            }
        }
    }

    func loadProfile() throws {
        do { try readProfileFile() }
        catch { throw error.context("Loading profile") }          // wraps, records #fileID and #line
    }
    do { try loadProfile() } catch {
        print(error.userMessage)   // "Loading profile: <the underlying message>"
        _ = error.rootCause        // the original error
        _ = error.chain            // outermost first, root last
    }
    let ns = LoginError.locked(minutes: 5) as NSError             // bridging keeps the message
    assert(ns.localizedDescription == "Account locked for 5 minutes.")
    return printed
}

@Test("the README snippet runs and prints the wrapped message")
func readmeSnippet() {
    #expect(snippet() == ["Loading profile: profile.json does not exist."])
}
