import Testing
@testable import Serialization

@Test("the Serialization module links and names itself")
func moduleNamesItself() {
    #expect(SerializationModule.name == "Serialization")
}
