import Errors
import Foundation

/// Everything ``HTTPClient`` can throw, each case saying what went wrong and for which request.
public enum HTTPClientError: AppError {
    /// The server answered with a status outside the acceptable range. The body is kept up to
    /// ``HTTPClientError/bodyLimit`` bytes.
    case unacceptableStatus(HTTPStatus, body: Data, headers: HTTPHeaders, request: OutgoingRequest)
    /// A path or URL could not be resolved against the base URL.
    case invalidURL(String, reason: String)
    /// A header name or value would corrupt the request (CR, LF or NUL in it, or an empty name).
    case invalidHeader(name: String, reason: String)
    /// More redirects than the limit allows.
    case tooManyRedirects(limit: Int, url: URL)
    /// A redirect from `https` to `http`, refused so credentials and bodies never leave TLS.
    case insecureRedirect(from: URL, to: URL)
    /// The body grew past the response size limit.
    case responseTooLarge(limit: Int, url: URL)
    /// The body could not be decoded as the expected type.
    case decodingFailed(type: String, contentType: String?, url: URL, underlying: any Error)
    /// The request body could not be encoded.
    case encodingFailed(type: String, underlying: any Error)
    /// The response's content type is not one that can be decoded into the type asked for.
    case unsupportedContentType(String?, type: String, url: URL)
    /// The request took longer than its resource timeout.
    case timedOut(request: OutgoingRequest, after: Duration)
    /// The network failed: no connection, a reset, an idle timeout, a TLS failure.
    case transport(request: OutgoingRequest, underlying: any Error)
    /// A download ended with a different number of bytes than the server announced.
    case incompleteDownload(expected: Int64, received: Int64, url: URL)
    /// A file could not be written, moved or read.
    case fileFailed(URL, underlying: any Error)

    /// How many bytes of an error response's body are kept: 64 KiB.
    public static let bodyLimit = 64 * 1024

    /// What went wrong, naming the request or URL.
    public var message: String {
        switch self {
        case .unacceptableStatus(let status, let body, _, let request):
            let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return "\(request) answered \(status)" + (text.isEmpty ? "." : ": \(text)")
        case .invalidURL(let path, let reason):
            return "Cannot make a URL from \"\(path)\": \(reason)."
        case .invalidHeader(let name, let reason):
            return "Header \"\(name)\" is invalid: \(reason)."
        case .tooManyRedirects(let limit, let url):
            return "Stopped after \(limit) redirects at \(url.absoluteString)."
        case .insecureRedirect(let from, let to):
            return "Refused to follow a redirect from \(from.absoluteString) to insecure \(to.absoluteString)."
        case .responseTooLarge(let limit, let url):
            return "The response from \(url.absoluteString) is larger than the limit of \(limit) bytes."
        case .decodingFailed(let type, let contentType, let url, let underlying):
            return
                "Cannot decode \(type) from \(url.absoluteString) (\(contentType ?? "no content type")): \(underlying.userMessage)"
        case .encodingFailed(let type, let underlying):
            return "Cannot encode \(type) as the request body: \(underlying.userMessage)"
        case .unsupportedContentType(let contentType, let type, let url):
            return
                "Cannot decode \(type) from \(url.absoluteString): content type \(contentType ?? "(none)") is not supported."
        case .timedOut(let request, let after):
            return "\(request) did not finish within \(after)."
        case .transport(let request, let underlying):
            return "\(request) failed: \(underlying.localizedDescription)"
        case .incompleteDownload(let expected, let received, let url):
            return "The download of \(url.absoluteString) has \(received) bytes but the server announced \(expected)."
        case .fileFailed(let url, let underlying):
            return "File \(url.path) could not be written: \(underlying.localizedDescription)"
        }
    }

    /// The wrapped error, for the chain.
    public var underlyingError: (any Error)? {
        switch self {
        case .decodingFailed(_, _, _, let error), .encodingFailed(_, let error), .transport(_, let error),
            .fileFailed(_, let error):
            error
        default: nil
        }
    }

    /// The status of an ``unacceptableStatus(_:body:headers:request:)`` error.
    public var status: HTTPStatus? {
        if case .unacceptableStatus(let status, _, _, _) = self { return status }
        return nil
    }

    /// The (size-limited) body of an ``unacceptableStatus(_:body:headers:request:)`` error.
    public var body: Data? {
        if case .unacceptableStatus(_, let body, _, _) = self { return body }
        return nil
    }
}
