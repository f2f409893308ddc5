import Foundation
import Testing

@testable import Serialization

// How keys are written: sorted, and renamed by the snake_case strategy.

private struct OrderedKeys: Codable {
    var zebra = 1
    var apple = 2
    var mango = 3
}

private struct Identifiers: Codable, Equatable {
    var userID: String
    var URLString: String
    var imageURLs: [String]
}

private struct Settings: Codable, Equatable {
    var displayName: String
    var preferences: [String: Int]
}

@Suite("Keys: sorted output and the snake_case strategy")
struct KeyOrderAndStrategyTests {
    @Test("the output has sorted keys, stable across runs")
    func sortedKeys() throws {
        let json = Serializer(.json)
        #expect(try json.string(OrderedKeys()) == #"{"apple":2,"mango":3,"zebra":1}"#)
        #expect(try json.data(OrderedKeys()) == json.data(OrderedKeys()))
    }

    @Test("snake_case round trips acronyms", arguments: everyFormat)
    func snakeCaseAcronyms(format: any DataFormat) throws {
        let options = CodingOptions(keys: .snakeCase)
        let value = Identifiers(userID: "u1", URLString: "https://x", imageURLs: ["a"])
        let tree = try KeyValueEncoder(options: options).encode(value)
        // A leading acronym stays one word (JSONEncoder writes "u_rl_string"); a plural acronym
        // splits before its last capital, as JSONEncoder splits it.
        #expect(tree.objectValue?.keys.sorted() == ["image_ur_ls", "url_string", "user_id"])
        #expect(try roundTrip(value, format, options: options) == value)
    }

    @Test("snake_case leaves dictionary keys (data, not property names) untouched", arguments: everyFormat)
    func snakeCaseDictionaryKeys(format: any DataFormat) throws {
        let options = CodingOptions(keys: .snakeCase)
        let value = Settings(displayName: "a", preferences: ["fontSize": 12, "snake_key": 1, "HTTPPort": 80])
        #expect(try roundTrip(value, format, options: options) == value)
        let tree = try KeyValueEncoder(options: options).encode(value)
        #expect(tree[path: "preferences.fontSize"] == .int(12))
        #expect(tree["display_name"] == .string("a"))
    }
}
