import Testing
@testable import ModelGen

@Test("the ModelGen module links and names itself")
func moduleNamesItself() {
    #expect(ModelGenModule.name == "ModelGen")
}
