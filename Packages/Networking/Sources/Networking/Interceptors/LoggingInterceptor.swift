import Foundation

/// Logs each request and response, with credentials redacted.
///
/// A header's value is printed only when its name is in ``shownHeaders`` — by default the
/// headers a redirect may carry to another origin (``RedirectPolicy/defaultHeadersSafeToForward``)
/// and the standard response headers — so a session header such as `X-API-Key` is redacted by
/// the same rule that keeps it from crossing origins. `Authorization`, `Proxy-Authorization`,
/// `Cookie` and `Set-Cookie` print as `<redacted>` whatever the list says, so logs can be
/// shared without leaking sessions or tokens.
public struct LoggingInterceptor: HTTPInterceptor {
    /// The headers whose values never reach the log.
    public static let sensitiveHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// The headers whose values are logged by default: those a redirect forwards across
    /// origins, and the standard response headers that carry no credentials.
    public static let defaultShownHeaders: Set<String> = RedirectPolicy.defaultHeadersSafeToForward.union([
        "Accept-Ranges", "Age", "Allow", "Connection", "Content-Disposition", "Content-Range", "Date", "ETag",
        "Expires", "Keep-Alive", "Last-Modified", "Location", "Retry-After", "Server", "Transfer-Encoding", "Vary",
        "WWW-Authenticate",
    ])

    /// The header names (any case) whose values are logged; every other value is redacted.
    /// Give it the same additions you give ``RedirectPolicy/headersSafeToForward``.
    public var shownHeaders: Set<String>
    /// Whether header lines are logged, not only the request and status lines.
    public var includesHeaders: Bool
    private let write: @Sendable (String) -> Void

    /// A logger that passes each entry to `write` (standard output by default).
    public init(
        includesHeaders: Bool = true, shownHeaders: Set<String> = LoggingInterceptor.defaultShownHeaders,
        write: @escaping @Sendable (String) -> Void = { print($0) }
    ) {
        self.includesHeaders = includesHeaders
        self.shownHeaders = shownHeaders
        self.write = write
    }

    /// Logs `→ METHOD URL` and the headers.
    public func adapt(_ request: OutgoingRequest) async throws -> OutgoingRequest {
        write("→ \(request.method) \(request.url.absoluteString)" + headerLines(request.headers))
        return request
    }

    /// Logs `← STATUS URL (N bytes)` and the headers.
    public func inspect(_ response: HTTPResponse) async throws {
        write(
            "← \(response.status) \(response.url.absoluteString) (\(response.body.count) bytes)"
                + headerLines(response.headers))
    }

    /// Logs `✗ METHOD URL: error`.
    public func failed(_ request: OutgoingRequest, with error: any Error) async {
        write("✗ \(request.method) \(request.url.absoluteString): \(error.localizedDescription)")
    }

    /// The headers as `Name: value` lines, every value not in `shown` (or in
    /// ``sensitiveHeaders``) redacted.
    public static func redacted(_ headers: HTTPHeaders, shown: Set<String> = defaultShownHeaders) -> [String] {
        headers.map { field in
            let visible =
                !sensitiveHeaders.contains(field.name.lowercased())
                && shown.contains { ASCII.equalsIgnoringCase($0, field.name) }
            return "\(field.name): \(visible ? field.value : "<redacted>")"
        }
    }

    private func headerLines(_ headers: HTTPHeaders) -> String {
        guard includesHeaders, !headers.isEmpty else { return "" }
        return Self.redacted(headers, shown: shownHeaders).map { "\n    \($0)" }.joined()
    }
}
