import Foundation

/// Reads a binary property list (`bplist00`) into a ``KeyValue``.
///
/// Hardened against hostile files: every offset and reference is range-checked, a container
/// that contains itself is an error, objects shared by many containers are read once, and the
/// tree they expand to is limited, so a small file cannot demand unbounded time or memory.
struct BinaryPropertyListReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    let offsetWidth: Int
    let refWidth: Int
    let objectCount: Int
    let topObject: Int
    let tableOffset: Int
    /// How many values the whole tree may expand to.
    let nodeLimit: Int

    /// A read object keeps its size (values it expands to) and height (containers nested in
    /// it), so a shared object reused deeper down still counts against both limits.
    enum State { case unread, reading, read(KeyValue, size: Int, height: Int) }
    var states: [State]
    var depth = 0
    var path: [KeyValuePath.Component] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) throws(SerializationError) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        func fail(_ reason: String) -> SerializationError {
            .malformed(reason, SerializationError.Location(format: "binary property list"))
        }
        guard bytes.count >= 8 + 32 else { throw fail("the file is too short for a binary property list (truncated?)") }
        guard bytes.starts(with: Array("bplist0".utf8)) else { throw fail("the file does not start with bplist0") }
        let trailer = bytes.count - 32
        offsetWidth = Int(bytes[trailer + 6])
        refWidth = Int(bytes[trailer + 7])
        func word(_ at: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in at..<(at + 8) { value = value << 8 | UInt64(bytes[index]) }
            return value
        }
        let count = word(trailer + 8)
        let top = word(trailer + 16)
        let table = word(trailer + 24)
        guard (1...8).contains(offsetWidth), (1...8).contains(refWidth) else {
            throw fail("the trailer has invalid integer sizes")
        }
        guard count >= 1, count <= UInt64(bytes.count), top < count, table >= 8, table <= UInt64(trailer) else {
            throw fail("the trailer's object count, top object or offset table is out of range")
        }
        let (tableSize, overflow) = Int(count).multipliedReportingOverflow(by: offsetWidth)
        guard !overflow, Int(table) + tableSize <= trailer else { throw fail("the offset table runs past the trailer") }
        objectCount = Int(count)
        topObject = Int(top)
        tableOffset = Int(table)
        nodeLimit = max(4_000_000, objectCount * 16)
        states = Array(repeating: .unread, count: objectCount)
    }

    func location(_ offset: Int? = nil) -> SerializationError.Location {
        SerializationError.Location(format: "binary property list", keyPath: KeyValuePath(path), offset: offset)
    }

    func fail(_ reason: String, at offset: Int? = nil) -> SerializationError { .malformed(reason, location(offset)) }

    func readUInt(at offset: Int, width: Int) throws(SerializationError) -> Int {
        guard offset >= 0, offset + width <= bytes.count else { throw fail("an integer runs past the end", at: offset) }
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        guard let result = Int(exactly: value) else { throw fail("an offset or reference is too large", at: offset) }
        return result
    }

    mutating func read() throws(SerializationError) -> KeyValue {
        try object(topObject).value
    }

    /// The object numbered `ref`, how many values it expands to, and how many containers nest
    /// in it (0 for a scalar).
    ///
    /// `depth` counts the containers being read around it; a container is refused when it
    /// would be deeper than ``maximumDepth``, the depth the writers allow.
    mutating func object(_ ref: Int) throws(SerializationError) -> (value: KeyValue, size: Int, height: Int) {
        guard ref >= 0, ref < objectCount else {
            throw fail("a reference (\(ref)) points past the \(objectCount) objects")
        }
        switch states[ref] {
        case .read(let value, let size, let height):
            guard depth + height <= maximumDepth else { throw .tooDeep(limit: maximumDepth, location()) }
            return (value, size, height)
        case .reading: throw fail("object \(ref) contains itself (a cycle)")
        case .unread: break
        }
        states[ref] = .reading
        depth += 1
        let offset = try readUInt(at: tableOffset + ref * offsetWidth, width: offsetWidth)
        guard offset >= 8, offset < tableOffset else {
            throw fail("object \(ref)'s offset (\(offset)) is out of range")
        }
        let result = try parse(at: offset)
        depth -= 1
        guard result.size <= nodeLimit else { throw .tooLarge(limit: nodeLimit, location()) }
        states[ref] = .read(result.value, size: result.size, height: result.height)
        return result
    }
}
