import FlyingSocks
import Foundation

/// Why the proxy refused to read a message: the head or the body broke a limit or HTTP/1.1's grammar.
enum WireError: Error, Equatable {
    /// The head (start line and fields) grew past the limit before its blank line.
    case headTooLarge(limit: Int)
    /// The head breaks HTTP/1.1's grammar; the text says where.
    case malformed(String)
    /// The body grew past the limit.
    case bodyTooLarge(limit: Int)
    /// A transfer coding other than `chunked`.
    case unsupportedTransferEncoding(String)
    /// The peer closed the connection in the middle of a message.
    case truncated
}

/// The head of an HTTP/1.1 message: its start line and its fields in the order they came.
struct WireHead: Sendable, Equatable {
    var startLine: String
    var fields: [WireField]

    /// The first value of `name`, compared case-insensitively.
    func value(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of `name`, in order.
    func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// The names listed in `Connection` (hop-by-hop fields the sender wants dropped), lowercased.
    var connectionOptions: Set<String> {
        Set(
            values("Connection").flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    }
}

/// One header field. Bytes are kept as ISO Latin-1 so that whatever came in goes out unchanged.
struct WireField: Sendable, Equatable {
    var name: String
    var value: String
}

/// A buffered reader and writer over one socket. Used by one task at a time.
struct WireConnection {
    let socket: AsyncSocket
    private var buffer: [UInt8] = []
    private var start = 0
    private(set) var closedByPeer = false

    init(socket: AsyncSocket) {
        self.socket = socket
    }

    private var available: Int { buffer.count - start }

    /// Reads more bytes into the buffer; false at the end of the stream.
    private mutating func fill() async throws -> Bool {
        if closedByPeer { return false }
        do {
            let bytes = try await socket.read(atMost: 16 * 1024)
            if start > 64 * 1024 {
                buffer.removeFirst(start)
                start = 0
            }
            buffer.append(contentsOf: bytes)
            return true
        } catch SocketError.disconnected {
            closedByPeer = true
            return false
        }
    }

    private mutating func take(_ count: Int) -> [UInt8] {
        let bytes = Array(buffer[start..<(start + count)])
        start += count
        return bytes
    }

    /// Reads a message head. Returns nil when the peer closed the connection before sending a byte
    /// of it (the normal end of a kept-alive connection).
    mutating func readHead(limit: Int) async throws -> WireHead? {
        var searchFrom = start
        while true {
            if let end = headEnd(from: searchFrom) {
                let length = end - start
                if length > limit { throw WireError.headTooLarge(limit: limit) }
                let bytes = take(length)
                return try Self.parseHead(bytes)
            }
            if available > limit { throw WireError.headTooLarge(limit: limit) }
            // As an offset from `start`: `fill()` may move the buffer's contents to its front.
            let scanned = max(0, available - 3)
            guard try await fill() else {
                if available == 0 { return nil }
                throw WireError.truncated
            }
            searchFrom = start + scanned
        }
    }

    /// The index just past the blank line (`CRLF CRLF`) that ends a head, if it is in the buffer.
    private func headEnd(from index: Int) -> Int? {
        var position = index
        while position + 3 < buffer.count {
            if buffer[position] == 13, buffer[position + 1] == 10, buffer[position + 2] == 13,
                buffer[position + 3] == 10
            {
                return position + 4
            }
            position += 1
        }
        return nil
    }

    /// Splits and checks a head: CRLF line ends only, no NUL, no folded lines, a token before each colon.
    static func parseHead(_ bytes: [UInt8]) throws -> WireHead {
        if bytes.contains(0) { throw WireError.malformed("a NUL byte in the head") }
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        var index = 0
        let end = bytes.count - 2  // the final CRLF ends the last (empty) line
        while index < end {
            let byte = bytes[index]
            if byte == 13 {
                guard index + 1 < bytes.count, bytes[index + 1] == 10 else {
                    throw WireError.malformed("a bare CR in the head")
                }
                lines.append(line)
                line = []
                index += 2
                continue
            }
            if byte == 10 { throw WireError.malformed("a bare LF in the head") }
            line.append(byte)
            index += 1
        }
        guard let first = lines.first, !first.isEmpty else { throw WireError.malformed("an empty start line") }
        let startLine = String(decoding: first, as: Unicode.ASCII.self)
        guard first.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw WireError.malformed("a control or non-ASCII byte in the start line")
        }
        var fields: [WireField] = []
        for raw in lines.dropFirst() {
            if raw.first == 32 || raw.first == 9 { throw WireError.malformed("a folded header line") }
            guard let colon = raw.firstIndex(of: 58), colon > 0 else {
                throw WireError.malformed("a header line without a name and a colon")
            }
            let name = raw[..<colon]
            guard name.allSatisfy(Self.isTokenByte) else {
                throw WireError.malformed("a header name with a byte that is not a token character")
            }
            let value = raw[(colon + 1)...]
            if value.contains(where: { $0 < 0x20 && $0 != 9 || $0 == 0x7F }) {
                throw WireError.malformed("a control character in a header value")
            }
            fields.append(
                WireField(
                    name: String(decoding: name, as: Unicode.ASCII.self),
                    value: (String(bytes: value, encoding: .isoLatin1) ?? "").trimmingCharacters(in: .whitespaces)))
        }
        return WireHead(startLine: startLine, fields: fields)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// Reads exactly `count` bytes.
    mutating func readExactly(_ count: Int) async throws -> [UInt8] {
        while available < count {
            guard try await fill() else { throw WireError.truncated }
        }
        return take(count)
    }

    /// Reads until the peer closes the connection, at most `limit` bytes.
    mutating func readToEnd(limit: Int) async throws -> [UInt8] {
        while try await fill() {
            if available > limit { throw WireError.bodyTooLarge(limit: limit) }
        }
        return take(available)
    }

    /// Reads one CRLF-terminated line (without the CRLF), at most `limit` bytes.
    private mutating func readLine(limit: Int) async throws -> [UInt8] {
        var searchFrom = start
        while true {
            var position = searchFrom
            while position + 1 < buffer.count {
                if buffer[position] == 13, buffer[position + 1] == 10 {
                    let line = take(position - start)
                    start += 2
                    return line
                }
                position += 1
            }
            if available > limit { throw WireError.malformed("a chunk line longer than \(limit) bytes") }
            let scanned = max(0, available - 1)
            guard try await fill() else { throw WireError.truncated }
            searchFrom = start + scanned
        }
    }

    /// Reads a `chunked` body and returns it decoded; trailers are read and dropped.
    mutating func readChunked(limit: Int) async throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try await readLine(limit: 4096)
            let sizeText = String(decoding: line.prefix { $0 != 59 }, as: Unicode.ASCII.self)
                .trimmingCharacters(in: .whitespaces)
            guard !sizeText.isEmpty, sizeText.count <= 15, let size = Int(sizeText, radix: 16), size >= 0 else {
                throw WireError.malformed("a chunk size that is not hexadecimal")
            }
            if size == 0 {
                while try await !readLine(limit: 8192).isEmpty {}
                return body
            }
            if body.count + size > limit { throw WireError.bodyTooLarge(limit: limit) }
            body += try await readExactly(size)
            guard try await readExactly(2) == [13, 10] else { throw WireError.malformed("a chunk without its CRLF") }
        }
    }

    /// Reads the body that `head` announces: `chunked`, `Content-Length`, or (for a response
    /// without either) everything until the peer closes.
    mutating func readBody(of head: WireHead, isResponse: Bool, limit: Int) async throws -> [UInt8] {
        let codings = head.values("Transfer-Encoding")
        if !codings.isEmpty {
            let joined = codings.joined(separator: ",").lowercased().replacingOccurrences(of: " ", with: "")
            guard joined == "chunked" else { throw WireError.unsupportedTransferEncoding(String(joined.prefix(64))) }
            if !head.values("Content-Length").isEmpty {
                throw WireError.malformed("both Transfer-Encoding and Content-Length")
            }
            return try await readChunked(limit: limit)
        }
        let lengths = Set(head.values("Content-Length"))
        if lengths.count > 1 { throw WireError.malformed("Content-Length given twice with different values") }
        if let text = lengths.first {
            guard !text.isEmpty, text.count <= 18, text.allSatisfy(\.isASCIIDigit), let length = Int(text) else {
                throw WireError.malformed("a Content-Length that is not a number")
            }
            if length > limit { throw WireError.bodyTooLarge(limit: limit) }
            return try await readExactly(length)
        }
        return isResponse ? try await readToEnd(limit: limit) : []
    }

    /// Writes `bytes` whole.
    func write(_ bytes: [UInt8]) async throws {
        try await socket.write(Data(bytes))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Serialises a head and a body with a `Content-Length` (bodies are always sent whole).
func wireMessage(startLine: String, fields: [WireField], body: [UInt8], withLength: Bool = true) -> [UInt8] {
    var text = startLine + "\r\n"
    for field in fields { text += "\(field.name): \(field.value)\r\n" }
    if withLength { text += "Content-Length: \(body.count)\r\n" }
    text += "\r\n"
    return Array(text.data(using: .isoLatin1) ?? Data(text.utf8)) + body
}

/// The fields that belong to one connection (RFC 9110 §7.6.1) and never cross a proxy, plus the
/// framing fields the proxy writes itself.
func endToEndFields(of head: WireHead) -> [WireField] {
    let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authorization", "expect", "content-length",
    ]
    let listed = head.connectionOptions
    return head.fields.filter {
        let name = $0.name.lowercased()
        return !hopByHop.contains(name) && !listed.contains(name)
    }
}
