import Foundation

/// How redirects are followed.
///
/// The client follows them itself rather than letting URLSession do it, because
/// FoundationNetworking on Linux keeps `Authorization` and cookies when a redirect leaves the
/// origin. Here, whenever scheme, host or port change, only the headers in
/// ``headersSafeToForward`` go along: credentials, cookies, the client's session headers
/// (`X-API-Key`, say), and anything an interceptor or the auth added stay at home. `https` →
/// `http` is refused, and the chain is limited.
public struct RedirectPolicy: Sendable {
    /// Whether redirects are followed at all; when not, the 3xx response is returned.
    public var follows: Bool
    /// The most redirects one request may follow.
    public var limit: Int
    /// The header names (any case) that still go along when a redirect leaves the origin;
    /// every other header is dropped. ``credentialHeaders`` are dropped even when listed here.
    ///
    /// Add a header of your own to forward it: `policy.headersSafeToForward.insert("X-Trace")`.
    public var headersSafeToForward: Set<String>

    /// A policy from its parts.
    public init(
        follows: Bool = true, limit: Int = 10,
        headersSafeToForward: Set<String> = RedirectPolicy.defaultHeadersSafeToForward
    ) {
        self.follows = follows
        self.limit = limit
        self.headersSafeToForward = headersSafeToForward
    }

    /// Follow up to 10 redirects.
    public static var standard: RedirectPolicy { RedirectPolicy() }

    /// The headers that carry credentials and never cross origins, whatever
    /// ``headersSafeToForward`` says.
    public static let credentialHeaders = ["Authorization", "Proxy-Authorization", "Cookie"]

    /// Standard headers that describe what is asked for, not who asks: content negotiation,
    /// the body's description, conditions and ranges (so a resumed download can be redirected
    /// to a CDN), caching and `User-Agent`.
    public static let defaultHeadersSafeToForward: Set<String> = [
        "Accept", "Accept-Encoding", "Accept-Language", "Cache-Control", "Content-Encoding", "Content-Language",
        "Content-Length", "Content-Type", "If-Match", "If-Modified-Since", "If-None-Match", "If-Range",
        "If-Unmodified-Since", "Pragma", "Range", "User-Agent",
    ]

    /// Whether a header named `name` goes along when a redirect leaves the origin.
    public func forwardsAcrossOrigins(_ name: String) -> Bool {
        guard !Self.credentialHeaders.contains(where: { ASCII.equalsIgnoringCase($0, name) }) else { return false }
        return headersSafeToForward.contains { ASCII.equalsIgnoringCase($0, name) }
    }

    /// The request that follows `response`'s redirect from `request`, or nil when the response
    /// is not a redirect this policy follows.
    ///
    /// - Throws: ``HTTPClientError/insecureRedirect(from:to:)`` for `https` → `http`.
    public func nextRequest(after request: OutgoingRequest, head: ResponseHead) throws -> OutgoingRequest? {
        guard follows, head.status.isRedirect, let location = head.headers["Location"],
            let target = URL(string: location, relativeTo: request.url)?.absoluteURL
        else { return nil }
        if request.url.scheme?.lowercased() == "https" && target.scheme?.lowercased() != "https" {
            throw HTTPClientError.insecureRedirect(from: request.url, to: target)
        }
        var next = request
        next.url = target
        if !Origin(request.url).matches(Origin(target)) {
            next.headers = HTTPHeaders(
                request.headers.filter { forwardsAcrossOrigins($0.name) }.map { ($0.name, $0.value) })
        }
        let code = head.status.code
        let becomesGet = code == 303 ? request.method != .head : (code == 301 || code == 302) && request.method == .post
        if becomesGet {
            next.method = .get
            next.body = .empty
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"] {
                next.headers.remove(name)
            }
        }
        return next
    }
}

/// A URL's origin: scheme, host and port (RFC 6454).
struct Origin: Equatable {
    var scheme: String
    var host: String
    var port: Int

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
    }

    func matches(_ other: Origin) -> Bool { self == other }
}
