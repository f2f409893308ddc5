import Foundation

/// Sees every request before it is sent and every response after it arrives, in the order
/// the interceptors are listed: for logging, metrics, signing, extra headers.
///
/// Interceptors run once per attempt, so a retried request is adapted again. Headers they add
/// are validated like any other (no CR or LF).
public protocol HTTPInterceptor: Sendable {
    /// Returns the request to send instead of `request`; the default returns it unchanged.
    func adapt(_ request: OutgoingRequest) async throws -> OutgoingRequest
    /// Looks at a response as it arrives. For downloads and streams the body is empty.
    func inspect(_ response: HTTPResponse) async throws
    /// Hears that an attempt failed before any response arrived.
    func failed(_ request: OutgoingRequest, with error: any Error) async
}

extension HTTPInterceptor {
    /// Returns the request unchanged.
    public func adapt(_ request: OutgoingRequest) async throws -> OutgoingRequest { request }
    /// Does nothing.
    public func inspect(_ response: HTTPResponse) async throws {}
    /// Does nothing.
    public func failed(_ request: OutgoingRequest, with error: any Error) async {}
}

/// An interceptor that adds headers to every request that does not already set them.
public struct HeaderInterceptor: HTTPInterceptor {
    /// The headers to add.
    public var headers: HTTPHeaders

    /// An interceptor that adds `headers`.
    public init(_ headers: HTTPHeaders) {
        self.headers = headers
    }

    /// Adds the headers the request lacks.
    public func adapt(_ request: OutgoingRequest) async throws -> OutgoingRequest {
        var request = request
        for field in headers where !request.headers.contains(field.name) {
            request.headers.add(field.name, field.value)
        }
        return request
    }
}
