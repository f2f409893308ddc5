import Foundation

/// What a server answered before its body: the status, the headers and the URL that answered.
public struct ResponseHead: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The headers, in the order received.
    public var headers: HTTPHeaders
    /// The URL that produced this response.
    public var url: URL
    /// Whether the transport undid the `Content-Encoding` (gzip, deflate, br) before handing
    /// the body on, as URLSession does.
    ///
    /// `Content-Length` and byte ranges then count the encoded bytes, not the ones delivered:
    /// they say nothing about the body's length, and a partial body cannot be resumed.
    public var isContentDecoded: Bool

    /// A head from its parts.
    public init(status: HTTPStatus, headers: HTTPHeaders, url: URL, isContentDecoded: Bool = false) {
        self.status = status
        self.headers = headers
        self.url = url
        self.isContentDecoded = isContentDecoded
    }

    /// The `Content-Length` header, when present and valid.
    ///
    /// For a body the transport decoded (``isContentDecoded``) this is the encoded length:
    /// use ``deliveredContentLength`` for the bytes that will arrive.
    public var expectedContentLength: Int64? {
        headers["Content-Length"].flatMap { Int64(ASCII.trimmingWhitespace($0)) }
    }

    /// How many body bytes the receiver will be handed, when the server promised it: the
    /// `Content-Length`, unless the transport decodes the body, which makes it unknown.
    public var deliveredContentLength: Int64? {
        isContentDecoded ? nil : expectedContentLength
    }

    /// Whether `Content-Encoding` names a coding other than `identity`.
    var hasContentCoding: Bool {
        guard let coding = headers["Content-Encoding"] else { return false }
        return coding.split(separator: ",").contains {
            !ASCII.equalsIgnoringCase(String(ASCII.trimmingWhitespace($0)), "identity")
        }
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
