import Testing
@testable import Networking

@Test("the Networking module links and names itself")
func moduleNamesItself() {
    #expect(NetworkingModule.name == "Networking")
}
