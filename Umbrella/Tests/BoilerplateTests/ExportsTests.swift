import Boilerplate
import Testing

@Test("import Boilerplate re-exports the Errors package")
func reexportsErrors() {
    let error = MessageError("Invalid email and password.")
    #expect(error.userMessage == "Invalid email and password.")
}
