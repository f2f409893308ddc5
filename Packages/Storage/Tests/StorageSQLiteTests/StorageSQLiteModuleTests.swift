import Testing
@testable import StorageSQLite

@Test("the StorageSQLite module links and names itself")
func moduleNamesItself() {
    #expect(StorageSQLiteModule.name == "StorageSQLite")
}
