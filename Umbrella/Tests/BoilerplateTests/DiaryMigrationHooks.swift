import Foundation
import Serialization

/// A stored rating that no whole number of stars (Integer 16) can hold.
struct RatingOutOfRange: Error, CustomStringConvertible {
    var rating: Double
    var description: String { "rating \(rating) does not fit a whole number of stars" }
}

/// The hook the generated diary model (Generated/, ModelGen's output) needs: ratings were a
/// Double in version 1 and are whole stars from version 2.
extension DiaryEntry {
    static func migrate_DiaryEntry_rating_v1_to_v2(_ tree: inout KeyValue) throws {
        guard let value = tree["rating"]?.doubleValue else { return }
        guard let stars = Int16(exactly: value.rounded()) else { throw RatingOutOfRange(rating: value) }
        tree["rating"] = .int(Int(stars))
    }
}
