import Foundation
import Testing

@Test("the test bundle for boiler builds")
func bundleBuilds() {
    #expect(ProcessInfo.processInfo.processIdentifier > 0)
}
