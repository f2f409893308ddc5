import Testing
@testable import Operations

@Test("the Operations module links and names itself")
func moduleNamesItself() {
    #expect(OperationsModule.name == "Operations")
}
