import Foundation

/// The fast path of reading a model from JSON (``Serializer/read(_:from:)-(_,Data)``): a
/// one-pass reader that decodes straight from the bytes instead of building a ``KeyValue`` tree
/// first, for the plain models most documents hold.
///
/// It answers only when the answer is certain to equal the full reader's (``JSONFormat`` then
/// ``KeyValueDecoder``): the whole document is checked as strictly as that reader checks it
/// (syntax, UTF-8, duplicate keys, nesting), and anything it does not handle the same way —
/// `Date`, `Data`, `Decimal`, ``KeyValue`` and ``Versioned`` values, escaped or non-ASCII keys,
/// numbers whose reading could differ, any error at all — makes it give up, and the caller reads
/// the document with the full reader, which also produces the error. A model type that needs an
/// unhandled type is remembered, so it pays for the attempt once.
enum JSONFastReader {
    /// The deepest nesting read here; deeper documents go to the full reader.
    static let maximumDepth = 256

    /// The `Value` in `data`; ``GiveUp`` when the full reader must read it. For one document (a
    /// ``Serializer/Reader`` keeps what this looks up for many).
    /// - Parameters:
    ///   - depthLimit: The reader's own limit: a document nested deeper is left to it (to refuse).
    ///   - userInfo: What the model sees as `Decoder.userInfo`, as the full reader passes it.
    static func value<Value: Decodable>(
        _ type: Value.Type, from data: Data, depthLimit: Int, userInfo: [CodingUserInfoKey: any Sendable]
    ) throws(GiveUp) -> Value {
        var (kind, tape) = fastReaderState.start(Value.self)
        defer { fastReaderState.finish(returning: &tape) }
        return try read(Value.self, from: data, depthLimit: depthLimit, userInfo: userInfo, kind: &kind, tape: &tape)
    }

    /// What the fast reader knows of `type` (``ModelKind/unhandled`` once it met a type only the
    /// full reader handles).
    static func kind<Value>(of type: Value.Type) -> ModelKind { fastReaderState.kind(of: type) }

    /// The `Value` in `data`; ``GiveUp`` when the full reader must read it. (A thrown error,
    /// not an optional: unspecialized generic code would look up `Optional<Value>` for every
    /// document.)
    /// - Parameters:
    ///   - kind: What is known of `Value`; set to ``ModelKind/unhandled`` when it turns out the
    ///     type needs the full reader (every later document would too).
    ///   - tape: A tape to fill, kept by the caller for its capacity.
    static func read<Value: Decodable>(
        _ type: Value.Type, from data: Data, depthLimit: Int, userInfo: [CodingUserInfoKey: any Sendable],
        kind: inout ModelKind, tape: inout [TapeNode]
    ) throws(GiveUp) -> Value {
        do {
            return try data.withUnsafeBytes { raw in
                try read(Value.self, from: raw, depthLimit: depthLimit, userInfo: userInfo, kind: &kind, tape: &tape)
            }
        } catch let giveUp as GiveUp {
            throw giveUp
        } catch {
            throw GiveUp()
        }
    }

    /// ``read(_:from:depthLimit:userInfo:kind:tape:)`` from memory the caller owns.
    static func read<Value: Decodable>(
        _ type: Value.Type, from raw: UnsafeRawBufferPointer, depthLimit: Int,
        userInfo: [CodingUserInfoKey: any Sendable], kind: inout ModelKind, tape: inout [TapeNode]
    ) throws(GiveUp) -> Value {
        guard kind != .unhandled else { throw GiveUp() }
        let known = kind
        tape.removeAll(keepingCapacity: true)
        do {
            let bytes = raw.bindMemory(to: UInt8.self)
            var scanner = TapeScanner(bytes: bytes, maximumDepth: min(depthLimit, maximumDepth))
            swap(&scanner.tape, &tape)
            defer { swap(&scanner.tape, &tape) }
            try scanner.document()
            return try decode(Value.self, known, bytes, scanner.tape, userInfo)
        } catch let giveUp as GiveUp where giveUp.byType {
            fastReaderState.markUnhandled(Value.self)
            kind = .unhandled
            throw giveUp
        } catch {
            throw GiveUp()
        }
    }
}

extension JSONFastReader {
    /// The `Value` at the root of `tape`. The decoder goes when this returns, so the tape is not
    /// shared when it is kept for the next document (unless the model kept the decoder).
    private static func decode<Value: Decodable>(
        _ type: Value.Type, _ kind: ModelKind, _ bytes: UnsafeBufferPointer<UInt8>, _ tape: [TapeNode],
        _ userInfo: [CodingUserInfoKey: any Sendable]
    ) throws -> Value {
        let decoder = TapeDecoder(bytes: bytes, tape: tape, userInfo: userInfo)
        let value = try kind == .ordinary ? Value(from: decoder) : decoder.read(Value.self, at: 0, path: [])
        // A model may have caught a give-up (or `contains` noted one): the result is not the full reader's.
        if decoder.gaveUp { throw GiveUp(byType: decoder.gaveUpByType) }
        return value
    }
}

/// What the fast reader keeps between documents.
let fastReaderState = FastReaderState()

/// What the fast reader knows of a model type.
enum ModelKind {
    /// A type the full reader decodes with `init(from:)` and nothing else: read with it directly.
    case ordinary
    /// A scalar or a type the tape decoder reads itself.
    case special
    /// A type whose decoding meets something only the full reader handles: never tried again.
    case unhandled
}

/// Model types with their ``ModelKind``, and tapes kept for reuse (their capacity), shared by
/// every read: one lock to start a document, one to end it.
final class FastReaderState: @unchecked Sendable {
    // @unchecked: `kinds` and `tapes` are only touched under `lock`.
    private let lock = NSLock()
    private var kinds: [ObjectIdentifier: ModelKind] = [:]
    private var tapes: [[TapeNode]] = []
    /// Tapes kept at most (one per thread reading at once, roughly), and the largest kept.
    private static let keptTapes = 8
    private static let keptCapacity = 4_096

    /// What is known of `type`, and a tape to fill.
    func start<T>(_ type: T.Type) -> (ModelKind, [TapeNode]) {
        let (known, tape) = lock.withLock { (kinds[ObjectIdentifier(type)], tapes.popLast()) }
        return (known ?? kind(of: type), tape ?? Self.newTape())
    }

    /// What is known of `type`.
    func kind<T>(of type: T.Type) -> ModelKind {
        let key = ObjectIdentifier(type)
        if let known = lock.withLock({ kinds[key] }) { return known }
        // Worked out outside the lock: the conformance check can be slow the first time.
        let found: ModelKind = TapeDecoder.isOrdinary(type) ? .ordinary : .special
        return lock.withLock {
            if let known = kinds[key] { return known }
            kinds[key] = found
            return found
        }
    }

    /// Takes `tape` back for the next document, emptied, unless enough are kept or it grew large.
    func finish(returning tape: inout [TapeNode]) {
        guard tape.capacity <= Self.keptCapacity else { return }
        tape.removeAll(keepingCapacity: true)
        let kept = tape
        tape = []
        lock.withLock { if tapes.count < Self.keptTapes { tapes.append(kept) } }
    }

    func markUnhandled<T>(_ type: T.Type) {
        lock.withLock { kinds[ObjectIdentifier(type)] = .unhandled }
    }

    static func newTape() -> [TapeNode] {
        var tape: [TapeNode] = []
        tape.reserveCapacity(64)
        return tape
    }
}

/// Why the fast reader stopped: `byType` when the model type needs something it does not handle
/// (so every document of that type would stop), otherwise something about this document.
struct GiveUp: Error {
    var byType = false
}

/// One JSON value located in the document: a flat list of these, in document order, is the tape.
struct TapeNode {
    enum Kind: UInt8 { case object, array, string, escapedString, number, integer, bool, null }
    var kind: Kind
    /// Strings: the bytes between the quotes. Numbers: the text. Containers: the brackets.
    var start: Int32
    var end: Int32
    /// The index of the node after this value and everything inside it.
    var next: Int32
    /// Objects: the number of entries (each a key node, then the value). Arrays: of elements.
    /// Booleans: 1 for true.
    var count: Int32
}

/// Checks a JSON document as strictly as the package's JSON reader and records where its values are.
struct TapeScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var tape: [TapeNode] = []
    /// The deepest nesting scanned: the full reader's limit or less (stopping earlier only costs speed).
    let maximumDepth: Int

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func document() throws(GiveUp) {
        // Tape offsets are Int32: a longer document is the full reader's, before a byte is read.
        guard bytes.count < Int(Int32.max) else { throw GiveUp() }
        skipWhitespace()
        try value(depth: 0)
        skipWhitespace()
        guard position == bytes.count else { throw GiveUp() }
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(GiveUp) {
        guard position < bytes.count else { throw GiveUp() }
        switch bytes[position] {
        case UInt8(ascii: "{"): try object(depth: depth + 1)
        case UInt8(ascii: "["): try array(depth: depth + 1)
        case UInt8(ascii: "\""): try string(isKey: false)
        case UInt8(ascii: "t"): try literal("true", .bool, count: 1)
        case UInt8(ascii: "f"): try literal("false", .bool, count: 0)
        case UInt8(ascii: "n"): try literal("null", .null, count: 0)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw GiveUp()
        }
    }

    mutating func literal(_ text: StaticString, _ kind: TapeNode.Kind, count: Int32) throws(GiveUp) {
        let length = text.utf8CodeUnitCount
        guard position + length <= bytes.count else { throw GiveUp() }
        let expected = UnsafeBufferPointer(start: text.utf8Start, count: length)
        for offset in 0..<length where bytes[position + offset] != expected[offset] { throw GiveUp() }
        let start = position
        position += length
        tape.append(
            TapeNode(kind: kind, start: Int32(start), end: Int32(position), next: Int32(tape.count + 1), count: count))
    }

    mutating func object(depth: Int) throws(GiveUp) {
        guard depth <= maximumDepth else { throw GiveUp() }
        let node = tape.count
        let start = position
        tape.append(TapeNode(kind: .object, start: Int32(start), end: 0, next: 0, count: 0))
        position += 1
        skipWhitespace()
        var entries: Int32 = 0
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw GiveUp() }
                try string(isKey: true)
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw GiveUp() }
                position += 1
                skipWhitespace()
                try value(depth: depth)
                entries += 1
                skipWhitespace()
                guard position < bytes.count else { throw GiveUp() }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "}") else { throw GiveUp() }
                position += 1
                break
            }
        }
        tape[node].end = Int32(position)
        tape[node].next = Int32(tape.count)
        tape[node].count = entries
        try checkUniqueKeys(object: node)
    }

    /// The reader refuses an object that repeats a key. Keys here are plain ASCII (``string(isKey:)``
    /// gives up on others), so equal keys are equal bytes. Stored records have their keys sorted,
    /// so checking that each key is greater than the one before is enough; otherwise every pair
    /// is compared.
    func checkUniqueKeys(object: Int) throws(GiveUp) {
        let count = Int(tape[object].count)
        guard count > 1 else { return }
        var previous = object + 1
        var index = Int(tape[previous + 1].next)
        var sorted = true
        for _ in 1..<count {
            let order = compare(previous, index)
            if order == 0 { throw GiveUp() }
            if order > 0 { sorted = false }
            previous = index
            index = Int(tape[index + 1].next)
        }
        guard !sorted else { return }
        guard count <= 32 else { throw GiveUp() }
        var first = object + 1
        for _ in 0..<(count - 1) {
            var second = Int(tape[first + 1].next)
            while second < Int(tape[object].next) {
                if compare(first, second) == 0 { throw GiveUp() }
                second = Int(tape[second + 1].next)
            }
            first = Int(tape[first + 1].next)
        }
    }

    /// The byte order of the keys at tape nodes `lhs` and `rhs`: negative, zero or positive.
    func compare(_ lhs: Int, _ rhs: Int) -> Int {
        let left = Int(tape[lhs].start)
        let right = Int(tape[rhs].start)
        let leftCount = Int(tape[lhs].end) - left
        let rightCount = Int(tape[rhs].end) - right
        for offset in 0..<min(leftCount, rightCount) {
            let a = bytes[left + offset]
            let b = bytes[right + offset]
            if a != b { return a < b ? -1 : 1 }
        }
        return leftCount - rightCount
    }

    mutating func array(depth: Int) throws(GiveUp) {
        guard depth <= maximumDepth else { throw GiveUp() }
        let node = tape.count
        let start = position
        tape.append(TapeNode(kind: .array, start: Int32(start), end: 0, next: 0, count: 0))
        position += 1
        skipWhitespace()
        var elements: Int32 = 0
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                skipWhitespace()
                try value(depth: depth)
                elements += 1
                skipWhitespace()
                guard position < bytes.count else { throw GiveUp() }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "]") else { throw GiveUp() }
                position += 1
                break
            }
        }
        tape[node].end = Int32(position)
        tape[node].next = Int32(tape.count)
        tape[node].count = elements
    }

    /// A string at its opening quote. Keys must be ASCII without escapes (so that comparing bytes
    /// is comparing strings); values may hold escapes and any well-formed UTF-8.
    mutating func string(isKey: Bool) throws(GiveUp) {
        let start = position + 1
        var cursor = start
        var escaped = false
        while true {
            guard cursor < bytes.count else { throw GiveUp() }
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw GiveUp() }
            if byte == UInt8(ascii: "\\") {
                if isKey { throw GiveUp() }
                escaped = true
                cursor = try escape(at: cursor)
            } else if byte >= 0x80 {
                if isKey { throw GiveUp() }
                guard let length = TextValidation.utf8SequenceLength(bytes, at: cursor) else { throw GiveUp() }
                cursor += length
            } else {
                cursor += 1
            }
        }
        position = cursor + 1
        tape.append(
            TapeNode(
                kind: escaped ? .escapedString : .string, start: Int32(start), end: Int32(cursor),
                next: Int32(tape.count + 1), count: 0))
    }

    /// Checks the escape at `offset` (a backslash); returns the offset after it. Surrogate escapes
    /// are left to the full reader.
    func escape(at offset: Int) throws(GiveUp) -> Int {
        guard offset + 1 < bytes.count else { throw GiveUp() }
        let code = bytes[offset + 1]
        if JSONEscape.byte(for: code) != nil { return offset + 2 }
        switch code {
        case UInt8(ascii: "u"):
            guard let scalar = TextValidation.hex4(bytes, at: offset + 2), scalar < 0xD800 || scalar >= 0xE000 else {
                throw GiveUp()
            }
            return offset + 6
        default: throw GiveUp()
        }
    }

    /// A number per RFC 8259. Only numbers the reader turns into the same value as `Double(text)`
    /// or `Int(text)` pass: at most 30 digits, an exponent of at most two digits; an integer
    /// beyond `Int` gives up.
    mutating func number() throws(GiveUp) {
        guard let number = try? JSONNumberSyntax(bytes, at: position, readsInteger: false) else { throw GiveUp() }
        // Integers up to 18 digits fit `Int`; longer ones, long fractions and exponents of more
        // than two digits go to the full reader.
        guard number.isInteger ? number.mantissaDigits <= 18 : number.mantissaDigits <= 30 && number.exponentDigits <= 2
        else { throw GiveUp() }
        let start = position
        position = number.end
        tape.append(
            TapeNode(
                kind: number.isInteger ? .integer : .number, start: Int32(start), end: Int32(position),
                next: Int32(tape.count + 1), count: 0))
    }
}
