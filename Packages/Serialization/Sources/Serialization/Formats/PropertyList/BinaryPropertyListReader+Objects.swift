import Foundation

extension BinaryPropertyListReader {
    /// The count in a marker's low nibble, or in the integer that follows when the nibble is 0xF.
    func count(at offset: Int, nibble: UInt8) throws(SerializationError) -> (count: Int, start: Int) {
        if nibble != 0x0F { return (Int(nibble), offset + 1) }
        guard offset + 1 < bytes.count else { throw fail("a length runs past the end", at: offset) }
        let marker = bytes[offset + 1]
        guard marker & 0xF0 == 0x10, marker & 0x0F <= 3 else { throw fail("a length is not an integer", at: offset) }
        let width = 1 << Int(marker & 0x0F)
        let value = try readUInt(at: offset + 2, width: width)
        return (value, offset + 2 + width)
    }

    func checkRange(_ start: Int, _ length: Int, _ what: String) throws(SerializationError) {
        let (end, overflow) = start.addingReportingOverflow(length)
        guard !overflow, length >= 0, end <= tableOffset else { throw fail("\(what) runs past its bounds", at: start) }
    }

    /// The object at `offset`: containers go to their own functions, so that the recursion
    /// through them keeps each level's stack frame small (512 levels must fit a secondary
    /// thread's stack, also in debug builds).
    mutating func parse(at offset: Int) throws(SerializationError) -> (value: KeyValue, size: Int, height: Int) {
        switch bytes[offset] >> 4 {
        case 0xA, 0xC: return try parseArray(at: offset, nibble: bytes[offset] & 0x0F)
        case 0xD: return try parseDictionary(at: offset, nibble: bytes[offset] & 0x0F)
        default: return (try parseScalar(at: offset), 1, 0)
        }
    }

    @inline(never)
    func parseScalar(at offset: Int) throws(SerializationError) -> KeyValue {
        let marker = bytes[offset]
        let nibble = marker & 0x0F
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw fail("unknown marker 0x\(String(marker, radix: 16))", at: offset)
            }
        case 0x1:
            return try integer(at: offset, nibble: nibble)
        case 0x8:
            // A UID (NSKeyedArchiver's object reference): its low nibble is the byte count minus
            // one (0x80 is 1 byte, 0x83 is 4), unlike an integer's power of two.
            let width = Int(nibble) + 1
            try checkRange(offset + 1, width, "a UID")
            guard width <= 8 else {
                let high = try bits64Padded(at: offset + 1, width: width - 8)
                guard high == 0 else { throw .numberOutOfRange("a UID wider than 64 bits", location(offset)) }
                return try uid(bits64Padded(at: offset + 1 + width - 8, width: 8), at: offset)
            }
            return try uid(bits64Padded(at: offset + 1, width: width), at: offset)
        case 0x2:
            if nibble == 2 {
                try checkRange(offset + 1, 4, "a real")
                return .double(Double(Float(bitPattern: UInt32(try readUInt(at: offset + 1, width: 4)))))
            }
            guard nibble == 3 else { throw fail("a real of unsupported size", at: offset) }
            try checkRange(offset + 1, 8, "a real")
            return .double(Double(bitPattern: try bits64(at: offset + 1)))
        case 0x3:
            guard marker == 0x33 else { throw fail("a date of unsupported size", at: offset) }
            try checkRange(offset + 1, 8, "a date")
            let seconds = Double(bitPattern: try bits64(at: offset + 1))
            guard seconds.isFinite else { throw .numberOutOfRange("\(seconds)", location(offset)) }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case 0x4:
            let (length, start) = try count(at: offset, nibble: nibble)
            try checkRange(start, length, "data")
            return .data(Data(UnsafeBufferPointer(rebasing: bytes[start..<(start + length)])))
        case 0x5, 0x7:
            let (length, start) = try count(at: offset, nibble: nibble)
            try checkRange(start, length, "a string")
            let slice = UnsafeBufferPointer(rebasing: bytes[start..<(start + length)])
            if marker >> 4 == 0x5, slice.contains(where: { $0 >= 0x80 }) {
                throw fail("an ASCII string holds a non-ASCII byte", at: offset)
            }
            guard let text = TextValidation.string(utf8: slice) else { throw .invalidUTF8(location(offset)) }
            // An ASCII "$null" is null (PropertyListEncoder's nil); our writer stores a string
            // "$null" as UTF-16, which reads back below as the string it is.
            return marker >> 4 == 0x5 && text == "$null" ? .null : .string(text)
        case 0x6:
            let (length, start) = try count(at: offset, nibble: nibble)
            let (byteLength, overflow) = length.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw fail("a string is too long", at: offset) }
            try checkRange(start, byteLength, "a string")
            var units: [UInt16] = []
            units.reserveCapacity(length)
            for index in 0..<length {
                units.append(UInt16(bytes[start + 2 * index]) << 8 | UInt16(bytes[start + 2 * index + 1]))
            }
            guard let text = TextValidation.string(utf16: units) else {
                throw fail("a UTF-16 string holds a lone surrogate", at: offset)
            }
            return .string(text)
        default:
            throw fail("unknown marker 0x\(String(marker, radix: 16))", at: offset)
        }
    }

    @inline(never)
    mutating func parseArray(
        at offset: Int, nibble: UInt8
    ) throws(SerializationError) -> (
        value: KeyValue, size: Int, height: Int
    ) {
        let (length, start) = try count(at: offset, nibble: nibble)
        let (byteLength, overflow) = length.multipliedReportingOverflow(by: refWidth)
        guard !overflow else { throw fail("an array is too long", at: offset) }
        try checkRange(start, byteLength, "an array")
        guard depth <= maximumDepth else { throw .tooDeep(limit: maximumDepth, location()) }
        var elements: [KeyValue] = []
        elements.reserveCapacity(length)
        var size = 1
        var height = 1
        path.append(.index(0))
        for index in 0..<length {
            path[path.count - 1] = .index(index)
            let element = try object(try readUInt(at: start + index * refWidth, width: refWidth))
            elements.append(element.value)
            size += element.size
            height = max(height, element.height + 1)
            guard size <= nodeLimit else { throw .tooLarge(limit: nodeLimit, location()) }
        }
        path.removeLast()
        return (.array(elements), size, height)
    }

    @inline(never)
    mutating func parseDictionary(
        at offset: Int, nibble: UInt8
    ) throws(SerializationError) -> (
        value: KeyValue, size: Int, height: Int
    ) {
        let (length, start) = try count(at: offset, nibble: nibble)
        let (byteLength, overflow) = length.multipliedReportingOverflow(by: refWidth * 2)
        guard !overflow else { throw fail("a dictionary is too long", at: offset) }
        try checkRange(start, byteLength, "a dictionary")
        guard depth <= maximumDepth else { throw .tooDeep(limit: maximumDepth, location()) }
        var object = KeyValueObject()
        var size = 1
        var height = 1
        for index in 0..<length {
            let keyRef = try readUInt(at: start + index * refWidth, width: refWidth)
            let key: String
            switch try self.object(keyRef).value {
            case .string(let text): key = text
            // A key is always a string: an ASCII "$null" read as null is the key "$null".
            case .null: key = "$null"
            default: throw fail("a dictionary key is not a string", at: offset)
            }
            guard object.position(of: key) == nil else { throw .duplicateKey(key, location(offset)) }
            path.append(.key(key))
            let value = try self.object(try readUInt(at: start + (length + index) * refWidth, width: refWidth))
            path.removeLast()
            object[key] = value.value
            size += value.size
            height = max(height, value.height + 1)
            guard size <= nodeLimit else { throw .tooLarge(limit: nodeLimit, location()) }
        }
        return (.object(object), size, height)
    }

    /// A UID's value, read as an integer.
    func uid(_ raw: UInt64, at offset: Int) throws(SerializationError) -> KeyValue {
        guard let value = Int(exactly: raw) else { throw .numberOutOfRange("UID \(raw)", location(offset)) }
        return .int(value)
    }

    func bits64(at offset: Int) throws(SerializationError) -> UInt64 {
        guard offset + 8 <= bytes.count else { throw fail("a number runs past the end", at: offset) }
        var value: UInt64 = 0
        for index in offset..<(offset + 8) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// An integer object: ``KeyValue/int(_:)`` when it fits `Int`, else (a 128-bit one, as
    /// Foundation writes a `UInt64` above `Int64.max`) an exact ``KeyValue/decimal(_:)``.
    func integer(at offset: Int, nibble: UInt8) throws(SerializationError) -> KeyValue {
        guard nibble <= 4 else { throw fail("an integer of unsupported size", at: offset) }
        let width = 1 << Int(nibble)
        try checkRange(offset + 1, width, "an integer")
        if width == 16 {
            // 128-bit, two's complement: an Int when the high half only extends the low half's sign.
            let high = try bits64(at: offset + 1)
            let lowBits = try bits64(at: offset + 9)
            let low = Int64(bitPattern: lowBits)
            if high == (low < 0 ? UInt64.max : 0) { return .int(Int(low)) }
            let text = NumberText.text(int128High: high, low: lowBits)
            guard let decimal = Decimal(string: text, locale: NumberText.posix) else {
                throw .numberOutOfRange("a 128-bit integer", location(offset))
            }
            return .decimal(decimal)
        }
        let raw = try bits64Padded(at: offset + 1, width: width)
        return .int(width == 8 ? Int(Int64(bitPattern: raw)) : Int(raw))
    }

    func bits64Padded(at offset: Int, width: Int) throws(SerializationError) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}
