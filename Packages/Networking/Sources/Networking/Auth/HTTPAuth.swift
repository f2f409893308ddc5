import Foundation

/// How a client authenticates its requests.
///
/// Credentials go only to the base URL's origin: a request to another origin, or a redirect
/// that leaves it, carries no `Authorization`.
public enum HTTPAuth: Sendable {
    /// `Authorization: Basic base64(username:password)`.
    case basic(username: String, password: String)
    /// `Authorization: Bearer token`.
    case bearer(String)
    /// A bearer token from a provider that is asked to refresh it once when the server
    /// answers 401; the request is then retried with the new token.
    case refreshing(any TokenProvider)

    /// A bearer token from `refresh`, refreshed on 401 (concurrent 401s share one refresh).
    public static func refresher(
        initialToken: String? = nil, refresh: @escaping @Sendable () async throws -> String
    ) -> HTTPAuth {
        .refreshing(TokenRefresher(initialToken: initialToken, refresh: refresh))
    }

    /// The header value and the token it carries (nil for basic).
    func authorization() async throws -> (header: String, token: String?) {
        switch self {
        case .basic(let username, let password):
            return ("Basic " + Data("\(username):\(password)".utf8).base64EncodedString(), nil)
        case .bearer(let token):
            return ("Bearer \(token)", token)
        case .refreshing(let provider):
            let token = try await provider.token()
            return ("Bearer \(token)", token)
        }
    }
}

/// Supplies bearer tokens and replaces one the server rejected.
public protocol TokenProvider: Sendable {
    /// The token to send now, fetching one if there is none yet.
    func token() async throws -> String
    /// A new token to replace `rejected`, which the server answered 401 to.
    ///
    /// Many requests may report the same rejected token at once; an implementation should
    /// refresh once and give them all the new token (``TokenRefresher`` does).
    func refresh(rejected: String?) async throws -> String
}

/// A ``TokenProvider`` that calls its refresh closure once however many requests are
/// rejected at the same time.
public actor TokenRefresher: TokenProvider {
    private var current: String?
    private var inFlight: Task<String, any Error>?
    private let fetch: @Sendable () async throws -> String

    /// A refresher that starts with `initialToken` (or fetches one on first use).
    public init(initialToken: String? = nil, refresh: @escaping @Sendable () async throws -> String) {
        self.current = initialToken
        self.fetch = refresh
    }

    /// The current token, fetched first when there is none.
    public func token() async throws -> String {
        if let current { return current }
        return try await refresh(rejected: nil)
    }

    /// A new token, unless another caller already replaced `rejected`, in which case that one.
    public func refresh(rejected: String?) async throws -> String {
        if let current, current != rejected { return current }
        if let inFlight { return try await inFlight.value }
        // The task stores the token before anyone awaiting it resumes, so a caller that
        // retries at once reads the new token rather than the rejected one.
        let task = Task { [fetch] in
            let token = try await fetch()
            self.store(token)
            return token
        }
        inFlight = task
        defer { inFlight = nil }
        return try await task.value
    }

    private func store(_ token: String) {
        current = token
    }
}
