import Boilerplate
import Testing

@Test("import Boilerplate re-exports the Errors package")
func reexportsErrors() {
    let error = MessageError("Invalid email and password.")
    #expect(error.userMessage == "Invalid email and password.")
}

@Test("import Boilerplate alone reaches a working part of every other runtime package")
func reexportsEveryPackage() throws {
    // Operations, Commands, EventBus, Router: a value or a type each.
    #expect(LoadState<Int>.idle.value == nil)
    #expect(ModelStore(3).read { $0 } == 3)
    #expect(NamedEvent(name: "network:on").name == "network:on")
    #expect(throws: RouteError.self) { try RouteTable().add("/a/:/b") { _ in } }
    // Serialization and Networking: real values through their public API.
    #expect(String(decoding: try Serializer(.json).data(["b": 2, "a": 1]), as: UTF8.self) == #"{"a":1,"b":2}"#)
    #expect(HTTPStatus(404).isSuccess == false)
    // Storage: its entry type. (ModelGen is not re-exported: apps reach it through its build
    // plugin, and do not link Yams and Mustache.)
    #expect(FileAttributes().excludedFromBackup == false)
}
