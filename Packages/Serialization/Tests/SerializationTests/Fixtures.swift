import Foundation
import Serialization

/// A model touching every supported type.
struct Everything: Codable, Equatable {
    struct Inner: Codable, Equatable { var name: String; var values: [Int] }
    enum Kind: String, Codable { case small, large }

    var string = "héllo \"wörld\" <&> \n\t😀"
    var int = -42
    var int8: Int8 = -8
    var uint16: UInt16 = 16
    var int64: Int64 = .max
    var double = 3.25
    var float: Float = 0.5
    var bool = true
    var date = Date(timeIntervalSince1970: 1_700_000_000)
    var data = Data([0, 1, 2, 254, 255])
    var url = URL(string: "https://example.com/a?b=c")!
    var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    var decimal = Decimal(string: "12345.6789")!
    var optional: String? = nil
    var presentOptional: Int? = 7
    var array = [1, 2, 3]
    var nestedArray = [[1.5], [], [2.5, 3.5]]
    var dictionary = ["b": 2, "a": 1]
    var inner = Inner(name: "in", values: [9])
    var inners = [Inner(name: "x", values: []), Inner(name: "y", values: [1, 2])]
    var kind = Kind.large
    var emptyString = ""
}

/// The formats every round trip goes through.
enum Formats {
    static let all: [any DataFormat] = [
        JSONFormat(), JSONFormat(prettyPrinted: true), PropertyListFormat(.xml), PropertyListFormat(.binary),
    ]
}
