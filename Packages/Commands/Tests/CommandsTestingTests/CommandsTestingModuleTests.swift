import Testing
@testable import CommandsTesting

@Test("the CommandsTesting module links and names itself")
func moduleNamesItself() {
    #expect(CommandsTestingModule.name == "CommandsTesting")
}
