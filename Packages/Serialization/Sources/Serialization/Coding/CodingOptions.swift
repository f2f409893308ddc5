import Foundation

/// How models map to trees: dates, data and keys. One value configures both directions, so what
/// an encoder writes its decoder reads.
public struct CodingOptions: Sendable {
    /// How dates are represented in the tree.
    public enum DateStrategy: Sendable {
        /// As ``KeyValue/date(_:)``: ISO 8601 in UTC in text formats, native in property lists.
        /// Decoding also accepts ISO 8601 strings (with or without fractional seconds and offsets).
        case iso8601
        /// As seconds since 1970 (a number).
        case secondsSince1970
        /// As whole milliseconds since 1970 (an integer).
        case millisecondsSince1970
        /// As seconds since 2001-01-01, what `JSONEncoder` calls `deferredToDate`.
        case secondsSinceReferenceDate
        /// Your own mapping.
        case custom(
            encode: @Sendable (Date) throws -> KeyValue, decode: @Sendable (KeyValue) throws -> Date)
    }

    /// How raw bytes are represented in the tree.
    public enum DataStrategy: Sendable {
        /// As ``KeyValue/data(_:)``: base64 in text formats, native in property lists. Decoding
        /// also accepts base64 strings.
        case base64
        /// As an array of byte values (what `JSONEncoder` calls `deferredToData`).
        case bytes
    }

    /// How coding keys map to tree keys.
    public enum KeyStrategy: Sendable {
        /// Keys as the type declares them.
        case useDefaultKeys
        /// `camelCase` properties as `snake_case` keys (`imageURL` → `image_url`, `URLString` →
        /// `url_string`), both ways. The keys of a
        /// `[String: Value]` are data and stay as they are (`JSONEncoder` converts them too, and
        /// reads them back changed).
        case snakeCase
        /// Your own mapping from a coding key to a tree key, used both ways (not applied to the
        /// keys of a `[String: Value]`).
        case custom(@Sendable (String) -> String)
    }

    /// How dates are represented; ``DateStrategy/iso8601`` by default.
    public var dates: DateStrategy
    /// How bytes are represented; ``DataStrategy/base64`` by default.
    public var data: DataStrategy
    /// How keys are spelled; ``KeyStrategy/useDefaultKeys`` by default.
    public var keys: KeyStrategy
    /// Values for `Encoder.userInfo` and `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Options with the given strategies.
    public init(
        dates: DateStrategy = .iso8601, data: DataStrategy = .base64, keys: KeyStrategy = .useDefaultKeys,
        userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) {
        self.dates = dates
        self.data = data
        self.keys = keys
        self.userInfo = userInfo
    }

    /// The defaults: native dates and data, keys as declared.
    public static let `default` = CodingOptions()

    /// The tree key for a coding key.
    @inline(__always)
    func treeKey(_ key: String) -> String {
        switch keys {
        case .useDefaultKeys: key
        case .snakeCase: Self.snakeCased(key)
        case .custom(let transform): transform(key)
        }
    }

    /// `imageURL` → `image_url`, `userID2` → `user_id2`; leading and trailing underscores kept.
    static func snakeCased(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 >= 65 && $0 <= 90 }) else { return key }
        let characters = Array(key)
        var result = ""
        result.reserveCapacity(key.utf8.count + 4)
        for (position, character) in characters.enumerated() {
            if character.isUppercase {
                let previous = position > 0 ? characters[position - 1] : nil
                let next = position + 1 < characters.count ? characters[position + 1] : nil
                let startsWord =
                    position > 0 && previous != "_"
                    && ((previous.map { $0.isLowercase || $0.isNumber } ?? false)
                        || (next.map { $0.isLowercase } ?? false))
                if startsWord { result.append("_") }
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension CodingOptions {
    /// `image_url` → `imageUrl`: the best guess at a coding key for a snake_case tree key.
    static func camelCased(_ key: String) -> String {
        guard key.contains("_") else { return key }
        var result = ""
        var upperNext = false
        for (position, character) in key.enumerated() {
            if character == "_" && position > 0 {
                upperNext = true
            } else if upperNext {
                result += character.uppercased()
                upperNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }
}
