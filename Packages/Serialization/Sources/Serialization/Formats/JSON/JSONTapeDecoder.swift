import Foundation

// The decoding half of ``JSONFastReader``: a `Decoder` that reads values straight from the
// bytes a ``TapeScanner`` has checked and located. Anything it does not read exactly as the
// package's JSON reader would is a ``GiveUp``.

/// The `Decoder` over a tape: one instance per document, moved from node to node.
final class TapeDecoder: Decoder {
    let bytes: UnsafeBufferPointer<UInt8>
    let tape: [TapeNode]
    var node = 0
    var codingPath: [any CodingKey] = []
    /// Set whenever this decoder gives up, even if the model catches the error and carries on
    /// (`try?` with a default): the full reader might not have failed there, so the result
    /// cannot be trusted.
    var gaveUp = false
    var gaveUpByType = false
    let userInfoValues: [CodingUserInfoKey: any Sendable]
    var userInfo: [CodingUserInfoKey: Any] { userInfoValues }

    init(bytes: UnsafeBufferPointer<UInt8>, tape: [TapeNode], userInfo: [CodingUserInfoKey: any Sendable]) {
        self.bytes = bytes
        self.tape = tape
        userInfoValues = userInfo
    }

    /// The error that hands the document to the full reader, noted on the way.
    func giveUp(byType: Bool = false) -> GiveUp {
        gaveUp = true
        if byType { gaveUpByType = true }
        return GiveUp(byType: byType)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard tape[node].kind == .object else { throw giveUp() }
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(decoder: self, object: node, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard tape[node].kind == .array else { throw giveUp() }
        return TapeUnkeyedContainer(decoder: self, array: node, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TapeSingleValueContainer(decoder: self, node: node, codingPath: codingPath)
    }

    /// Whether ``read(_:at:path:)`` would decode `T` with `T.init(from:)` and nothing else.
    static func isOrdinary<T>(_ type: T.Type) -> Bool {
        let special: [Any.Type] = [
            String.self, Int.self, Double.self, Bool.self, Float.self, Int64.self, Int32.self, Int16.self, Int8.self,
            UInt.self, UInt64.self, UInt32.self, UInt16.self, UInt8.self, Date.self, Data.self, Decimal.self,
            KeyValue.self, UUID.self, URL.self,
        ]
        return !special.contains { $0 == T.self } && !(T.self is any Versioned.Type)
    }

    /// A `T` read from the value at `index`, with `path` as its coding path.
    func read<T: Decodable>(_ type: T.Type, at index: Int, path: [any CodingKey]) throws -> T {
        if let scalar = try scalar(T.self, at: index) { return scalar }
        // The full reader treats these itself (formats, migrations): leave them to it.
        if T.self == Date.self || T.self == Data.self || T.self == Decimal.self || T.self == KeyValue.self
            || T.self is any Versioned.Type
        {
            throw giveUp(byType: true)
        }
        if T.self == UUID.self {
            guard let uuid = UUID(uuidString: try string(at: index)) as? T else { throw giveUp() }
            return uuid
        }
        if T.self == URL.self {
            guard let url = URL(string: try string(at: index)) as? T else { throw giveUp() }
            return url
        }
        let saved = (node, codingPath)
        node = index
        codingPath = path
        defer { (node, codingPath) = saved }
        return try T(from: self)
    }

    /// The common scalar types, read directly; nil for other types.
    @inline(__always)
    func scalar<T>(_ type: T.Type, at index: Int) throws -> T? {
        if T.self == String.self { return unsafeBitCast(try string(at: index), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try integer(Int.self, at: index), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try double(at: index), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try bool(at: index), to: T.self) }
        if T.self == Float.self { return unsafeBitCast(try float(at: index), to: T.self) }
        if T.self == Int64.self { return unsafeBitCast(try integer(Int64.self, at: index), to: T.self) }
        if T.self == Int32.self { return unsafeBitCast(try integer(Int32.self, at: index), to: T.self) }
        if T.self == Int16.self { return unsafeBitCast(try integer(Int16.self, at: index), to: T.self) }
        if T.self == Int8.self { return unsafeBitCast(try integer(Int8.self, at: index), to: T.self) }
        if T.self == UInt.self { return unsafeBitCast(try integer(UInt.self, at: index), to: T.self) }
        if T.self == UInt64.self { return unsafeBitCast(try integer(UInt64.self, at: index), to: T.self) }
        if T.self == UInt32.self { return unsafeBitCast(try integer(UInt32.self, at: index), to: T.self) }
        if T.self == UInt16.self { return unsafeBitCast(try integer(UInt16.self, at: index), to: T.self) }
        if T.self == UInt8.self { return unsafeBitCast(try integer(UInt8.self, at: index), to: T.self) }
        return nil
    }

    func bool(at index: Int) throws -> Bool {
        let node = tape[index]
        guard node.kind == .bool else { throw giveUp() }
        return node.count == 1
    }

    func string(at index: Int) throws -> String {
        let node = tape[index]
        let text = UnsafeBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.end)])
        switch node.kind {
        case .string: return String(decoding: text, as: UTF8.self)
        case .escapedString: return Self.unescaped(text)
        default: throw giveUp()
        }
    }

    /// The text of a string whose escapes the scanner checked (no surrogates among them).
    static func unescaped(_ text: UnsafeBufferPointer<UInt8>) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var cursor = 0
        while cursor < text.count {
            let byte = text[cursor]
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                cursor += 1
                continue
            }
            let code = text[cursor + 1]
            cursor += 2
            if let byte = JSONEscape.byte(for: code) {
                result.append(byte)
            } else {  // `u`: the scanner let no other escape through
                let value = TextValidation.hex4(text, at: cursor) ?? 0xFFFD
                cursor += 4
                let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
                result.append(contentsOf: String(Character(scalar)).utf8)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// An integer literal as `N`; anything else (a fraction, out of range) is left to the full
    /// reader, which also accepts integral fractions.
    func integer<N: FixedWidthInteger>(_ type: N.Type, at index: Int) throws -> N {
        let node = tape[index]
        guard node.kind == .integer else { throw giveUp() }
        var cursor = Int(node.start)
        let end = Int(node.end)
        let negative = bytes[cursor] == UInt8(ascii: "-")
        if negative { cursor += 1 }
        // At most 18 digits (the scanner's limit): no overflow in Int.
        var value = 0
        while cursor < end {
            value = value * 10 + Int(bytes[cursor] - 48)
            cursor += 1
        }
        guard let result = N(exactly: negative ? -value : value) else { throw giveUp() }
        return result
    }

    func double(at index: Int) throws -> Double {
        let node = tape[index]
        guard node.kind == .number || node.kind == .integer else { throw giveUp() }
        if let exact = exactDouble(Int(node.start), Int(node.end)) { return exact }
        let text = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.end)]), as: UTF8.self)
        // At most 30 digits and a two-digit exponent: finite, and the nearest Double, as the
        // reader's exact number converts.
        guard let value = Double(text), value.isFinite else { throw giveUp() }
        return value
    }

    /// The number in `start..<end` when it has at most 15 significant digits... precisely, when
    /// its digits make an integer below 2⁵³ and its decimal exponent is within ±22: then that
    /// integer and that power of ten are exact doubles, and one multiplication or division
    /// rounds once — the nearest double, as `Double(text)` finds. Nil otherwise.
    func exactDouble(_ start: Int, _ end: Int) -> Double? {
        var cursor = start
        let negative = bytes[cursor] == UInt8(ascii: "-")
        if negative { cursor += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        while cursor < end {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte >= 48 && byte <= 57 {
                if mantissa > 0 || byte != 48 { digits += 1 }
                guard digits <= 19 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - 48)
                if seenPoint { scale -= 1 }
            } else {
                break
            }
            cursor += 1
        }
        if cursor < end {
            // An exponent: e, an optional sign, one or two digits (the scanner's limit).
            cursor += 1
            var exponentNegative = false
            if bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
                exponentNegative = bytes[cursor] == UInt8(ascii: "-")
                cursor += 1
            }
            var exponent = 0
            while cursor < end {
                exponent = exponent * 10 + Int(bytes[cursor] - 48)
                cursor += 1
            }
            scale += exponentNegative ? -exponent : exponent
        }
        guard mantissa < 1 << 53, scale >= -22, scale <= 22 else { return nil }
        var value = Double(mantissa)
        if scale < 0 {
            value /= Self.powersOfTen[-scale]
        } else if scale > 0 {
            value *= Self.powersOfTen[scale]
        }
        return negative ? -value : value
    }

    /// 10⁰ through 10²², each exact in a `Double`.
    static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    func float(at index: Int) throws -> Float {
        let value = Float(try double(at: index))
        guard value.isFinite else { throw giveUp() }
        return value
    }

    /// The entries of the object at `object`: key node, value node.
    func entries(of object: Int) -> [(key: Int, value: Int)] {
        var result: [(key: Int, value: Int)] = []
        var index = object + 1
        for _ in 0..<Int(tape[object].count) {
            result.append((index, index + 1))
            index = Int(tape[index + 1].next)
        }
        return result
    }

    /// The text of the key node at `index` (ASCII, unescaped).
    func keyText(_ index: Int) -> String {
        String(
            decoding: UnsafeBufferPointer(rebasing: bytes[Int(tape[index].start)..<Int(tape[index].end)]), as: UTF8.self
        )
    }
}

struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    let object: Int
    let codingPath: [any CodingKey]

    var allKeys: [Key] { decoder.entries(of: object).compactMap { Key(stringValue: decoder.keyText($0.key)) } }

    /// The value node under `key`, or nil. Keys are ASCII; a non-ASCII coding key gives up, as
    /// `String` equality is not byte equality there.
    func find(_ key: Key) throws -> Int? {
        var name = key.stringValue
        let bytes = decoder.bytes
        let tape = decoder.tape
        return try name.withUTF8 { wanted -> Int? in
            var index = object + 1
            for _ in 0..<Int(tape[object].count) {
                let start = Int(tape[index].start)
                let length = Int(tape[index].end) - start
                if length == wanted.count {
                    var equal = true
                    for offset in 0..<length where bytes[start + offset] != wanted[offset] {
                        equal = false
                        break
                    }
                    if equal { return index + 1 }
                }
                index = Int(tape[index + 1].next)
            }
            for byte in wanted where byte >= 0x80 { throw decoder.giveUp() }
            return nil
        }
    }

    func value(_ key: Key) throws -> Int {
        guard let index = try find(key) else { throw decoder.giveUp() }
        return index
    }

    func contains(_ key: Key) -> Bool {
        do {
            return try find(key) != nil
        } catch {
            return false
        }
    }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.tape[try value(key)].kind == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool(at: value(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string(at: value(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.double(at: value(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.float(at: value(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.integer(Int.self, at: value(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.integer(Int8.self, at: value(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try decoder.integer(Int16.self, at: value(key))
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try decoder.integer(Int32.self, at: value(key))
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try decoder.integer(Int64.self, at: value(key))
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.integer(UInt.self, at: value(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try decoder.integer(UInt8.self, at: value(key))
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decoder.integer(UInt16.self, at: value(key))
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decoder.integer(UInt32.self, at: value(key))
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decoder.integer(UInt64.self, at: value(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let index = try value(key)
        if let scalar = try decoder.scalar(T.self, at: index) { return scalar }
        return try decoder.read(T.self, at: index, path: codingPath + [key])
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = try find(key), decoder.tape[index].kind != .null else { return nil }
        if let scalar = try decoder.scalar(T.self, at: index) { return scalar }
        return try decoder.read(T.self, at: index, path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try value(key)
        guard decoder.tape[index].kind == .object else { throw decoder.giveUp() }
        return KeyedDecodingContainer(
            TapeKeyedContainer<NestedKey>(decoder: decoder, object: index, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try value(key)
        guard decoder.tape[index].kind == .array else { throw decoder.giveUp() }
        return TapeUnkeyedContainer(decoder: decoder, array: index, codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder { throw decoder.giveUp(byType: true) }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw decoder.giveUp(byType: true) }
}

struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let codingPath: [any CodingKey]
    let count: Int?
    var currentIndex = 0
    /// The node of the current element.
    var cursor: Int

    init(decoder: TapeDecoder, array: Int, codingPath: [any CodingKey]) {
        self.decoder = decoder
        self.codingPath = codingPath
        count = Int(decoder.tape[array].count)
        cursor = array + 1
    }

    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    /// The current element's node, moving past it.
    mutating func next() throws -> Int {
        guard !isAtEnd else { throw decoder.giveUp() }
        let index = cursor
        cursor = Int(decoder.tape[index].next)
        currentIndex += 1
        return index
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw decoder.giveUp() }
        guard decoder.tape[cursor].kind == .null else { return false }
        _ = try next()
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let position = currentIndex
        let index = try next()
        if let scalar = try decoder.scalar(T.self, at: index) { return scalar }
        return try decoder.read(T.self, at: index, path: codingPath + [IndexKey(intValue: position)])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let position = currentIndex
        let index = try next()
        guard decoder.tape[index].kind == .object else { throw decoder.giveUp() }
        return KeyedDecodingContainer(
            TapeKeyedContainer<NestedKey>(
                decoder: decoder, object: index, codingPath: codingPath + [IndexKey(intValue: position)]))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let position = currentIndex
        let index = try next()
        guard decoder.tape[index].kind == .array else { throw decoder.giveUp() }
        return TapeUnkeyedContainer(
            decoder: decoder, array: index, codingPath: codingPath + [IndexKey(intValue: position)])
    }

    mutating func superDecoder() throws -> any Decoder { throw decoder.giveUp(byType: true) }
}

struct TapeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    let node: Int
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { decoder.tape[node].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool(at: node) }
    func decode(_ type: String.Type) throws -> String { try decoder.string(at: node) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.double(at: node) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.float(at: node) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(Int.self, at: node) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(Int8.self, at: node) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(Int16.self, at: node) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(Int32.self, at: node) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(Int64.self, at: node) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(UInt.self, at: node) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(UInt8.self, at: node) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(UInt16.self, at: node) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(UInt32.self, at: node) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(UInt64.self, at: node) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let scalar = try decoder.scalar(T.self, at: node) { return scalar }
        return try decoder.read(T.self, at: node, path: codingPath)
    }
}

/// An array position in a coding path.
struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = Int(stringValue)
    }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
