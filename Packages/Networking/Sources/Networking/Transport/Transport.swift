import Foundation

/// What a server answered before its body: the status, the headers and the URL that answered.
public struct ResponseHead: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The headers, in the order received.
    public var headers: HTTPHeaders
    /// The URL that produced this response.
    public var url: URL

    /// A head from its parts.
    public init(status: HTTPStatus, headers: HTTPHeaders, url: URL) {
        self.status = status
        self.headers = headers
        self.url = url
    }

    /// The `Content-Length` header, when present and valid.
    public var expectedContentLength: Int64? {
        headers["Content-Length"].flatMap { Int64(ASCII.trimmingWhitespace($0)) }
    }
}

/// Receives one exchange as it happens. A ``Transport`` calls these in order, never at the
/// same time: the head once, then the body's chunks; upload progress may come before the head.
///
/// Throwing from ``receive(head:)`` or ``receive(_:)`` stops the exchange: the transport
/// cancels it and ``Transport/perform(_:receiver:)`` throws that error.
///
/// The calls come on the transport's own threads (for ``URLSessionTransport`` on Linux, the
/// session's work queue), so they should return quickly and never wait for the transport.
public protocol ResponseReceiver: AnyObject, Sendable {
    /// The status and headers arrived.
    func receive(head: ResponseHead) throws
    /// A chunk of the body arrived.
    func receive(_ chunk: Data) throws
    /// Some of the request body was sent.
    func sent(_ bytes: Int64, of total: Int64?)
}

extension ResponseReceiver {
    /// Ignores upload progress.
    public func sent(_ bytes: Int64, of total: Int64?) {}
}

/// Moves one request and its response over the network, following no redirects.
///
/// ``HTTPClient`` does everything else itself — redirects, retries, auth, validation — so a
/// transport stays small and the client behaves the same on every platform and transport.
/// ``URLSessionTransport`` is the default; `NetworkingAsyncHTTPClient` adds one for servers.
public protocol Transport: Sendable {
    /// Sends `request` and delivers the response to `receiver`, returning once the whole body
    /// has been delivered.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled (never
    ///   `URLError(.cancelled)`), the receiver's error when it stopped the exchange, or the
    ///   transport's own error otherwise.
    func perform(_ request: OutgoingRequest, receiver: any ResponseReceiver) async throws
}
