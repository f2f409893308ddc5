import Testing
@testable import Router

@Test("the Router module links and names itself")
func moduleNamesItself() {
    #expect(RouterModule.name == "Router")
}
