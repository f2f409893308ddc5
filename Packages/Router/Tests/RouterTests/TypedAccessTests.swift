import Foundation
import Testing

@testable import Router

@Suite("Typed parameter access")
struct TypedAccessTests {
    @Test("int, uuid, string and any LosslessStringConvertible read parameters, nil when they do not convert")
    func typedAccess() throws {
        let routes = try table(["/t/:n/:id/:amount/:flag/:word"])
        let match = try #require(routes.match("/t/42/E621E1F8-C36C-495A-93FC-0C247A3E6E5F/9.5/true/hello%20there"))
        #expect(match.int("n") == 42)
        #expect(match.uuid("id") == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(match.value("amount", as: Double.self) == 9.5)
        #expect(match.value("flag", as: Bool.self) == true)
        #expect(match.string("word") == "hello there")
        let inferred: Int? = match.value("n")
        #expect(inferred == 42)
        #expect(match.int("word") == nil)
        #expect(match.uuid("n") == nil)
        #expect(match.value("word", as: Double.self) == nil)
        #expect(match.int("missing") == nil)
        #expect(match.string("missing") == nil)
    }
}
