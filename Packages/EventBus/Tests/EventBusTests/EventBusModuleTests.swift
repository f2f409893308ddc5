import Testing
@testable import EventBus

@Test("the EventBus module links and names itself")
func moduleNamesItself() {
    #expect(EventBusModule.name == "EventBus")
}
