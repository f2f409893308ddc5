import Testing
@testable import Commands

@Test("the Commands module links and names itself")
func moduleNamesItself() {
    #expect(CommandsModule.name == "Commands")
}
