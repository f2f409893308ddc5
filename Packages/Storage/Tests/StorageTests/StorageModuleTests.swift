import Testing
@testable import Storage

@Test("the Storage module links and names itself")
func moduleNamesItself() {
    #expect(StorageModule.name == "Storage")
}
