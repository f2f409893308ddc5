import Foundation

/// A request relative to a client's base URL: a method, a path, query items, headers, a body
/// and per-request options.
///
/// ```swift
/// let response = try await client.send(HTTPRequest(method: .patch, path: "notes/5", json: ["text": "x"]))
/// ```
public struct HTTPRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The path, relative to the client's base URL (`"notes/5"`), or an absolute URL string.
    public var path: String
    /// Query items, in order; keys and values are percent-encoded when sent.
    public var query: [(String, String)]
    /// Headers for this request; they replace session-wide headers of the same name.
    public var headers: HTTPHeaders
    /// The body.
    public var body: RequestBody
    /// The idle timeout for this request, overriding the client's.
    public var timeout: Duration?
    /// The longest the whole request may take, retries and redirects included, overriding the client's.
    public var resourceTimeout: Duration?
    /// The statuses that count as success, overriding the client's (2xx by default).
    public var acceptableStatus: Set<Int>?
    /// The retry policy for this request, overriding the client's.
    public var retry: RetryPolicy?
    /// Whether to attach the client's authorization.
    public var authenticated: Bool = true

    /// A request with any body.
    public init(
        method: HTTPMethod = .get, path: String, query: [(String, String)] = [], headers: HTTPHeaders = HTTPHeaders(),
        body: RequestBody = .empty
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// A request whose body is `json`, encoded as JSON when it is sent.
    public init(
        method: HTTPMethod, path: String, query: [(String, String)] = [], headers: HTTPHeaders = HTTPHeaders(),
        json: some Encodable & Sendable
    ) {
        self.init(method: method, path: path, query: query, headers: headers, body: .json(json))
    }

    /// A request from a dictionary of query items, sorted by key so the URL is stable.
    public init(
        method: HTTPMethod = .get, path: String, query: [String: String], headers: HTTPHeaders = HTTPHeaders(),
        body: RequestBody = .empty
    ) {
        self.init(
            method: method, path: path, query: query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            headers: headers, body: body)
    }
}
