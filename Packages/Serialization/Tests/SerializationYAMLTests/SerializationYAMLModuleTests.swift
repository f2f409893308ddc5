import Testing
@testable import SerializationYAML

@Test("the SerializationYAML module links and names itself")
func moduleNamesItself() {
    #expect(SerializationYAMLModule.name == "SerializationYAML")
}
