import Foundation

/// How redirects are followed.
///
/// The client follows them itself rather than letting URLSession do it, because
/// FoundationNetworking on Linux keeps `Authorization` and cookies when a redirect leaves the
/// origin. Here they are dropped whenever scheme, host or port change, `https` → `http` is
/// refused, and the chain is limited.
public struct RedirectPolicy: Sendable {
    /// Whether redirects are followed at all; when not, the 3xx response is returned.
    public var follows: Bool
    /// The most redirects one request may follow.
    public var limit: Int

    /// A policy from its parts.
    public init(follows: Bool = true, limit: Int = 10) {
        self.follows = follows
        self.limit = limit
    }

    /// Follow up to 10 redirects.
    public static var standard: RedirectPolicy { RedirectPolicy() }

    /// The headers that carry credentials and never cross origins.
    public static let credentialHeaders = ["Authorization", "Proxy-Authorization", "Cookie"]

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
            for name in Self.credentialHeaders { next.headers.remove(name) }
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
