import Testing

@testable import BoilerCLI

@Suite("Project names")
struct ProjectNameTests {
    @Test(
        "kebab, snake and spaced names become PascalCase modules",
        arguments: [
            ("notes", "Notes"), ("my-notes", "MyNotes"), ("my notes app", "MyNotesApp"), ("todo_list2", "TodoList2"),
        ]
    )
    func pascalCase(input: String, module: String) throws {
        #expect(try ProjectName(input).module == module)
    }

    @Test(
        "names that collide with Swift, Foundation, test frameworks or the kit are refused",
        arguments: [
            "Router", "router", "Foundation", "XCTest", "Testing", "Dispatch", "Swift", "Boilerplate", "event-bus",
        ]
    )
    func reserved(name: String) {
        #expect {
            try ProjectName(name)
        } throws: { error in
            guard case .reservedName(_, _, let suggestion)? = error as? BoilerError else { return false }
            return suggestion.hasPrefix("My")
        }
    }

    @Test(
        "names that cannot become identifiers say why", arguments: ["", "   ", "2fast", "naïve", "a/b", "semi;colon"])
    func invalid(name: String) {
        #expect {
            try ProjectName(name)
        } throws: { error in
            guard case .invalidName? = error as? BoilerError else { return false }
            return (error as? BoilerError)?.exitCode == 64
        }
    }

    @Test("the collision message names the module and suggests another name")
    func message() {
        let error = BoilerError.reservedName("Router", module: "Router", suggestion: "MyRouter")
        #expect(
            error.message == "'Router' would collide with the module Router. Pick another name, such as 'MyRouter'.")
    }

    @Test("a name longer than 64 characters is refused with a short message; 64 are accepted")
    func length() throws {
        #expect(try ProjectName(String(repeating: "a", count: 64)).module.count == 64)
        for name in [String(repeating: "a", count: 65), String(repeating: "A", count: 10_000_000)] {
            #expect {
                try ProjectName(name)
            } throws: { error in
                guard let error = error as? BoilerError, case .invalidName = error else { return false }
                return error.message.contains("longer than 64 characters") && error.message.count < 200
            }
        }
    }
}
