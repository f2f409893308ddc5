import Foundation
import Testing

@testable import Serialization

// One Serializer shared by many tasks at once.

@Suite("A shared Serializer across concurrent tasks")
struct SharedSerializerConcurrencyTests {
    @Test("a shared Serializer is safe across concurrent tasks")
    func concurrentUse() async throws {
        let serializer = Serializer(.json)
        let binary = Serializer(.binaryPropertyList)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for iteration in 0..<100 {
                        let record = Record(
                            text: "t\(task)-\(iteration)", number: iteration, real: Double(task) / 3, flag: true,
                            when: Date(timeIntervalSince1970: Double(iteration)), blob: Data([UInt8(task)]),
                            list: [task, iteration], nested: ["k": "\(task)"])
                        let back = try serializer.read(Record.self, from: try serializer.data(record))
                        let backBinary = try binary.read(Record.self, from: try binary.data(record))
                        guard back == record, backBinary == record else { return false }
                    }
                    return true
                }
            }
            var all: [Bool] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16 && results.allSatisfy { $0 })
    }
}
