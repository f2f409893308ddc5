import Errors
import Testing

@Suite("ErrorList")
struct ErrorListTests {
    @Test("lists every message, one per line, with a count")
    func message() {
        let list = ErrorList([MessageError("Enter an email address."), LoginError.invalidCredentials])
        #expect(list.message == "2 errors:\n- Enter an email address.\n- Invalid email and password.")
        #expect(list.count == 2)
        #expect(list.code == "ErrorList")
    }

    @Test("a single error reads as that error")
    func single() {
        #expect(ErrorList([MessageError("Too short.")]).message == "Too short.")
    }

    @Test("nested lists are flattened")
    func flattening() {
        var list = ErrorList([MessageError("a")])
        list.append(ErrorList([MessageError("b"), MessageError("c")]))
        #expect(list.count == 3)
        #expect(list.map(\.userMessage) == ["a", "b", "c"])
    }

    @Test("throws only when it holds errors")
    func throwing() {
        #expect(throws: Never.self) { try ErrorList().throwIfNotEmpty() }
        #expect(throws: ErrorList.self) { try ErrorList([MessageError("x")]).throwIfNotEmpty() }
    }
}
