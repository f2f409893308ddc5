import Foundation

/// Logs each request and response, with credentials redacted.
///
/// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` values print as
/// `<redacted>`, so logs can be shared without leaking sessions or tokens.
public struct LoggingInterceptor: HTTPInterceptor {
    /// The headers whose values never reach the log.
    public static let sensitiveHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Whether header lines are logged, not only the request and status lines.
    public var includesHeaders: Bool
    private let write: @Sendable (String) -> Void

    /// A logger that passes each entry to `write` (standard output by default).
    public init(includesHeaders: Bool = true, write: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.includesHeaders = includesHeaders
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

    /// The headers as indented lines, sensitive values redacted.
    public static func redacted(_ headers: HTTPHeaders) -> [String] {
        headers.map { field in
            let value = sensitiveHeaders.contains(field.name.lowercased()) ? "<redacted>" : field.value
            return "\(field.name): \(value)"
        }
    }

    private func headerLines(_ headers: HTTPHeaders) -> String {
        guard includesHeaders, !headers.isEmpty else { return "" }
        return Self.redacted(headers).map { "\n    \($0)" }.joined()
    }
}
