import Foundation

/// A request resolved to what goes on the wire: an absolute URL, the final headers and a body.
///
/// This is what interceptors adapt, what a ``Transport`` sends, and what errors carry.
public struct OutgoingRequest: Sendable, CustomStringConvertible {
    /// The method.
    public var method: HTTPMethod
    /// The absolute URL, query included.
    public var url: URL
    /// Every header to send, in order.
    public var headers: HTTPHeaders
    /// The body.
    public var body: OutgoingBody
    /// How long the connection may stay idle before the request fails, in seconds.
    public var timeout: TimeInterval?

    /// A request from its parts.
    public init(
        method: HTTPMethod, url: URL, headers: HTTPHeaders = HTTPHeaders(), body: OutgoingBody = .empty,
        timeout: TimeInterval? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// `"GET http://host/path"`.
    public var description: String { "\(method) \(url.absoluteString)" }
}

/// The bytes a request sends.
public enum OutgoingBody: Sendable, Equatable {
    /// No body.
    case empty
    /// Bytes in memory.
    case data(Data)
    /// The contents of a file, streamed from disk.
    case file(URL)

    /// The body's length in bytes, when it is known without reading it.
    public var length: Int64? {
        switch self {
        case .empty: 0
        case .data(let data): Int64(data.count)
        case .file(let url):
            ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value
        }
    }
}
