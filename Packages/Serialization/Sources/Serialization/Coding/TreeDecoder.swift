import Foundation

/// The `Decoder` behind ``KeyValueDecoder``; one instance is reused down the tree.
final class TreeDecoder: Decoder {
    let options: CodingOptions
    var value: KeyValue
    var node: PathNode
    /// The migration `value` is read through, when it is a ``Versioned`` model's stored object
    /// that edit steps change: its keyed container reads each value through the view instead
    /// of a rewritten copy of the object.
    var view: MigrationView?
    /// For each type decoded through `init(from:)` in this decode, how its values migrate: nil
    /// for a type that is not ``Versioned``. Worked out once per type (and stored version), as a
    /// document holds thousands of values of a few types.
    var migrationPlans: [ObjectIdentifier: Migrator.DecodingPlan?] = [:]

    init(options: CodingOptions, value: KeyValue, node: PathNode) {
        self.options = options
        self.value = value
        self.node = node
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw mismatch("an object (\(Key.self))", value, node)
        }
        return KeyedDecodingContainer(
            TreeKeyedDecodingContainer<Key>(decoder: self, object: object, node: node, view: view))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else { throw mismatch("an array", value, node) }
        return TreeUnkeyedDecodingContainer(decoder: self, array: array, node: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        // A migrated object read whole: the object the steps produce.
        if let view, case .object(let object) = value {
            return TreeSingleValueDecodingContainer(
                decoder: self, value: .object(view.materialized(object)), node: node)
        }
        return TreeSingleValueDecodingContainer(decoder: self, value: value, node: node)
    }

    func mismatch(_ expected: String, _ found: KeyValue, _ node: PathNode) -> SerializationError {
        if found.isNull { return .valueNotFound(expected: expected, SerializationError.Location(keyPath: node.path)) }
        return .typeMismatch(expected: expected, found: found.kindName, SerializationError.Location(keyPath: node.path))
    }

    /// A `T` read from `value`, with fast paths for the types every model uses.
    @inline(__always)
    func unbox<T: Decodable>(_ value: KeyValue, as type: T.Type, node: @autoclosure () -> PathNode) throws -> T {
        if T.self == String.self {
            guard case .string(let string) = value else { throw mismatch("String", value, node()) }
            return unsafeBitCast(string, to: T.self)
        }
        if T.self == Int.self { return unsafeBitCast(try unboxInt(value, node()), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try unboxDouble(value, node()), to: T.self) }
        if T.self == Bool.self {
            guard case .bool(let bool) = value else { throw mismatch("Bool", value, node()) }
            return unsafeBitCast(bool, to: T.self)
        }
        return try unboxSlow(value, as: type, node: node())
    }

    func unboxSlow<T: Decodable>(_ value: KeyValue, as type: T.Type, node: PathNode) throws -> T {
        if T.self == Date.self, let date = try unboxDate(value, node) as? T { return date }
        if T.self == Data.self, let data = try unboxData(value, node) as? T { return data }
        if T.self == URL.self {
            guard case .string(let string) = value, let url = URL(string: string) as? T else {
                throw mismatch("URL", value, node)
            }
            return url
        }
        if T.self == UUID.self {
            guard case .string(let string) = value, let uuid = UUID(uuidString: string) as? T else {
                throw mismatch("UUID", value, node)
            }
            return uuid
        }
        if T.self == Decimal.self, let decimal = try unboxDecimal(value, node) as? T { return decimal }
        if T.self == KeyValue.self, let tree = value as? T { return tree }
        if T.self == Float.self, let number = try unboxFloat(value, node) as? T { return number }
        if !options.keys.isDefault, let dictionary = T.self as? any StringKeyedDictionaryDecodable.Type,
            let result = try dictionary.decodeEntries(from: value, with: self, node: node) as? T
        {
            return result
        }
        var value = value
        var view: MigrationView?
        let plan: Migrator.DecodingPlan?
        if let known = migrationPlans[ObjectIdentifier(T.self)] {
            plan = known
        } else {
            plan = (T.self as? any Versioned.Type).map { Migrator.DecodingPlan($0) }
            migrationPlans[ObjectIdentifier(T.self)] = .some(plan)
        }
        if let plan { (value, view) = try plan.decoding(value, at: node) }
        let savedValue = self.value
        let savedNode = self.node
        let savedView = self.view
        self.value = value
        self.node = node
        self.view = view
        defer {
            self.value = savedValue
            self.node = savedNode
            self.view = savedView
        }
        return try T(from: self)
    }

    @inline(__always)
    func unboxInt(_ value: KeyValue, _ node: @autoclosure () -> PathNode) throws -> Int {
        switch value {
        case .int(let number): return number
        case .double(let number):
            // An integer literal beyond Int64 parses as a Double; -9223372036854775809 rounds to
            // exactly -2⁶³, which must not pass as Int.min.
            guard number > -0x1p63, let integer = Int(exactly: number) else {
                throw SerializationError.numberOutOfRange(
                    "\(number)", SerializationError.Location(keyPath: node().path))
            }
            return integer
        case .decimal(let number):
            guard let integer = Int(number.description) else {
                throw SerializationError.numberOutOfRange(
                    "\(number)", SerializationError.Location(keyPath: node().path))
            }
            return integer
        default: throw mismatch("Int", value, node())
        }
    }

    /// An integer of any width, exactly: from an integer, an integral double, or a decimal
    /// (how integers beyond `Int` are held).
    func unboxInteger<N: FixedWidthInteger>(_ value: KeyValue, as type: N.Type, _ node: PathNode) throws -> N {
        let number: N?
        switch value {
        case .int(let wide): number = N(exactly: wide)
        case .double(let wide):
            // -9223372036854775809 used to parse as a Double rounding to exactly -2⁶³; keep
            // refusing that Double for 64-bit types rather than passing it as their minimum.
            number = N.bitWidth == 64 && N.isSigned && wide <= -0x1p63 ? nil : N(exactly: wide)
        case .decimal(let wide): number = N(wide.description)
        // Binary property lists hold integers up to 128 signed bits; a larger UInt128 is
        // stored as its digits.
        case .string(let text) where N.bitWidth > 64: number = N(text)
        default: throw mismatch("Int", value, node)
        }
        guard let number else {
            throw SerializationError.numberOutOfRange(
                "\(Self.numberText(value)) for \(N.self)", SerializationError.Location(keyPath: node.path))
        }
        return number
    }

    /// A number's text for an error message.
    static func numberText(_ value: KeyValue) -> String {
        switch value {
        case .int(let number): String(number)
        case .double(let number): number.description
        case .decimal(let number): number.description
        default: value.kindName
        }
    }

    @inline(__always)
    func unboxDouble(_ value: KeyValue, _ node: @autoclosure () -> PathNode) throws -> Double {
        switch value {
        case .double(let number): return number
        case .int(let number): return Double(number)
        case .decimal(let number):
            // The nearest Double to the decimal's digits (Decimal's own conversion can be off).
            guard let double = Double(number.description) else {
                throw SerializationError.numberOutOfRange(
                    "\(number) for Double", SerializationError.Location(keyPath: node().path))
            }
            return double
        default: throw mismatch("Double", value, node())
        }
    }

    /// A `Float`; a finite number beyond `Float`'s range is an error rather than infinity.
    func unboxFloat(_ value: KeyValue, _ node: @autoclosure () -> PathNode) throws -> Float {
        let number = try unboxDouble(value, node())
        let narrowed = Float(number)
        guard narrowed.isFinite || !number.isFinite else {
            throw SerializationError.numberOutOfRange(
                "\(number) for Float", SerializationError.Location(keyPath: node().path))
        }
        return narrowed
    }

    func unboxDate(_ value: KeyValue, _ node: PathNode) throws -> Date {
        if case .date(let date) = value { return date }
        switch options.dates {
        case .iso8601:
            guard case .string(let string) = value else { throw mismatch("Date", value, node) }
            guard let date = ISO8601.date(from: string) else {
                throw SerializationError.typeMismatch(
                    expected: "an ISO 8601 date", found: "\"\(string.prefix(40))\"",
                    SerializationError.Location(keyPath: node.path))
            }
            return date
        case .secondsSince1970: return Date(timeIntervalSince1970: try unboxDouble(value, node))
        case .millisecondsSince1970: return Date(timeIntervalSince1970: try unboxDouble(value, node) / 1000)
        case .secondsSinceReferenceDate: return Date(timeIntervalSinceReferenceDate: try unboxDouble(value, node))
        case .custom(_, let decode): return try decode(value)
        }
    }

    func unboxData(_ value: KeyValue, _ node: PathNode) throws -> Data {
        switch value {
        case .data(let data): return data
        case .string(let string):
            guard let data = Data(base64Encoded: string) else {
                throw SerializationError.typeMismatch(
                    expected: "base64 data", found: "a string that is not base64",
                    SerializationError.Location(keyPath: node.path))
            }
            return data
        case .array(let elements):
            var bytes = Data(capacity: elements.count)
            for (position, element) in elements.enumerated() {
                bytes.append(try unboxInteger(element, as: UInt8.self, .index(position, node)))
            }
            return bytes
        default: throw mismatch("Data", value, node)
        }
    }

    func unboxDecimal(_ value: KeyValue, _ node: PathNode) throws -> Decimal {
        switch value {
        case .string(let string):
            guard let decimal = Decimal(string: string, locale: Locale(identifier: "en_US_POSIX")) else {
                throw mismatch("Decimal", value, node)
            }
            return decimal
        case .int(let number): return Decimal(number)
        case .decimal(let number): return number
        case .double(let number):
            // Decimal(Double) keeps binary noise (0.1 → 0.1000000000000000512); the shortest
            // decimal that reads back as the same Double is what the writer meant.
            return Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(number)
        default: throw mismatch("Decimal", value, node)
        }
    }
}
