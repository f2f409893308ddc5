import FlyingFox
import FlyingSocks
import Foundation
import NetworkingTesting
import _KitSupport

/// A file the test server serves by hand, with the validators a test chooses and byte ranges
/// (`Range: bytes=N-`). Like FlyingFox's own file handler it ignores `If-Range`, as some servers
/// do, so the client alone must keep versions apart.
final class ServedFile: Sendable {
    struct State: Sendable {
        var content: Data
        var etag: String?
        var lastModified: String?
        /// The `Date` header sent; the current time when nil.
        var date: String?
        /// When set, the next full (`200`) response stops after this many bytes and the
        /// connection is dropped: an interrupted download.
        var cutAfter: Int?
        /// Added to the start of every range served: a server answering a range not asked for.
        var rangeShift = 0
    }

    let state: Locked<State>
    /// The `Range` and `If-Range` of each request served, in order (nil when absent).
    let seen = Locked<[(range: String?, ifRange: String?)]>([])

    init(content: Data, etag: String? = nil, lastModified: String? = nil, date: String? = nil) {
        state = Locked(State(content: content, etag: etag, lastModified: lastModified, date: date))
    }

    /// Changes what the file holds and its validators: a new version.
    func update(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
    }

    func respond(to request: FlyingFox.HTTPRequest) -> FlyingFox.HTTPResponse {
        let range = request.headers[HTTPHeader("Range")]
        seen.withLock { $0.append((range, request.headers[HTTPHeader("If-Range")])) }
        let current = state.withLock { state -> State in
            let current = state
            if range == nil { state.cutAfter = nil }
            return current
        }
        var headers = FlyingFox.HTTPHeaders()
        headers.addValue("application/octet-stream", for: .contentType)
        headers.addValue("bytes", for: HTTPHeader("Accept-Ranges"))
        headers.addValue(current.date ?? HTTPFormat.now(), for: HTTPHeader("Date"))
        if let etag = current.etag { headers.addValue(etag, for: HTTPHeader("ETag")) }
        if let lastModified = current.lastModified { headers.addValue(lastModified, for: HTTPHeader("Last-Modified")) }
        let size = current.content.count
        if let range, range.hasPrefix("bytes="), range.hasSuffix("-"),
            let asked = Int(range.dropFirst(6).dropLast()), case let start = asked + current.rangeShift, start < size
        {
            headers.addValue("bytes \(start)-\(size - 1)/\(size)", for: HTTPHeader("Content-Range"))
            return FlyingFox.HTTPResponse(
                statusCode: .partialContent, headers: headers, body: current.content[start...])
        }
        guard let cut = current.cutAfter else {
            return FlyingFox.HTTPResponse(statusCode: .ok, headers: headers, body: current.content)
        }
        let body = CutBody(data: current.content.prefix(cut))
        return FlyingFox.HTTPResponse(
            statusCode: .ok, headers: headers, body: HTTPBodySequence(from: body, count: size))
    }
}

/// HTTP dates for tests.
enum HTTPFormat {
    static func string(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    static func now() -> String { string(Date()) }
}

/// A body that yields its bytes, then fails: the server drops the connection mid-body.
struct CutBody: AsyncBufferedSequence {
    typealias Element = UInt8
    struct Dropped: Error {}

    let data: Data

    func makeAsyncIterator() -> Iterator { Iterator(data: data) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        typealias Buffer = Data
        let data: Data
        var offset = 0

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            guard offset < data.count else { throw Dropped() }
            let end = Swift.min(data.count, offset + Swift.max(count, 1))
            defer { offset = end }
            return data[(data.startIndex + offset)..<(data.startIndex + end)]
        }
    }
}

extension TestServer {
    /// Serves `file` at `route` (such as `"GET /api/files/a.bin"`).
    func serve(_ route: String, _ file: ServedFile) async {
        await httpServer.appendRoute(HTTPRoute(stringLiteral: route)) { request in file.respond(to: request) }
    }
}
