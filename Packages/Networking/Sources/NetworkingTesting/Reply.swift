import Foundation
import _KitSupport

/// A request as a test double saw it: ``TestServer`` on the wire, ``StubTransport`` in memory.
public struct SeenRequest: Sendable, Equatable {
    /// The method, such as `"GET"`.
    public var method: String
    /// The path, percent-decoding left to the server (`"/api/notes"`).
    public var path: String
    /// The raw, still percent-encoded query string (empty when there is none).
    public var rawQuery: String
    /// The query items by name; the last one wins when a name repeats.
    public var query: [String: String]
    /// Header names lower-cased; repeated fields joined with `", "`.
    public var headers: [String: String]
    /// The body bytes (a file body is read in full).
    public var body: Data

    /// A request from its parts.
    public init(
        method: String, path: String, rawQuery: String = "", query: [String: String] = [:],
        headers: [String: String] = [:], body: Data = Data()
    ) {
        self.method = method
        self.path = path
        self.rawQuery = rawQuery
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name`, matched without regard to case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The body as UTF-8 text, or nil when it is not valid UTF-8.
    public var text: String? { String(data: body, encoding: .utf8) }
}

/// What a test double answers: a status, headers, a body and an optional delay.
public struct Reply: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, in the order sent.
    public var headers: [(String, String)]
    /// The body bytes.
    public var body: Data
    /// How long to wait before answering, to exercise timeouts and cancellation.
    public var delay: Duration

    /// A reply from its parts; by default an empty 200 sent at once.
    public init(status: Int = 200, headers: [(String, String)] = [], body: Data = Data(), delay: Duration = .zero) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
    }

    /// JSON text with `Content-Type: application/json`.
    public static func json(_ text: String, status: Int = 200) -> Reply {
        Reply(status: status, headers: [("Content-Type", "application/json")], body: Data(text.utf8))
    }

    /// `value` encoded with `encoder`, with `Content-Type: application/json`.
    ///
    /// - Throws: the encoder's error when `value` cannot be encoded.
    public static func json(
        encoding value: some Encodable, status: Int = 200, encoder: JSONEncoder = JSONEncoder()
    ) throws -> Reply {
        Reply(status: status, headers: [("Content-Type", "application/json")], body: try encoder.encode(value))
    }

    /// Text, UTF-8 encoded.
    public static func text(
        _ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8"
    )
        -> Reply
    {
        Reply(status: status, headers: [("Content-Type", contentType)], body: Data(text.utf8))
    }

    /// Raw bytes with the given content type.
    public static func bytes(
        _ data: Data, status: Int = 200, contentType: String = "application/octet-stream"
    )
        -> Reply
    {
        Reply(status: status, headers: [("Content-Type", contentType)], body: data)
    }

    /// A bare status with no body, such as `.status(204)` or `.status(503)`.
    public static func status(_ status: Int, headers: [(String, String)] = []) -> Reply {
        Reply(status: status, headers: headers)
    }

    /// A redirect to `location` (absolute, or relative to the request's URL).
    public static func redirect(_ status: Int = 302, to location: String) -> Reply {
        Reply(status: status, headers: [("Location", location)])
    }

    /// This reply, sent after waiting `delay`.
    public func delayed(by delay: Duration) -> Reply {
        var copy = self
        copy.delay = delay
        return copy
    }
}
