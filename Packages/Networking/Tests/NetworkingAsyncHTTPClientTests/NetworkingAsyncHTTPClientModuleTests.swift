import Testing
@testable import NetworkingAsyncHTTPClient

@Test("the NetworkingAsyncHTTPClient module links and names itself")
func moduleNamesItself() {
    #expect(NetworkingAsyncHTTPClientModule.name == "NetworkingAsyncHTTPClient")
}
