import Foundation
import _KitSupport

/// An async HTTP client for one API: a base URL, session-wide headers and auth, retries,
/// redirects that keep credentials at home, interceptors, downloads and uploads with progress.
///
/// ```swift
/// let client = HTTPClient(baseURL: URL(string: "http://127.0.0.1:8080/api/")!)
/// client.headers["X-App"] = "demo"
/// client.auth = .basic(username: "tim", password: "secret")
/// let notes: [Note] = try await client.get("notes", query: ["page": "2"])
/// ```
///
/// Settings are safe to change from any thread; each request reads them once when it starts.
public final class HTTPClient: Sendable {
    /// The URL that request paths are resolved against. End it with `/` so `"notes"` resolves
    /// to `…/api/notes` rather than replacing the last component.
    public let baseURL: URL
    /// What moves bytes: URLSession by default.
    public let transport: any Transport

    /// `baseURL` as text when plain paths can simply be appended to it (see `URLResolution`).
    let baseDirectory: String?
    let settings: Locked<Settings>
    let activity: ActivityCounter
    let inFlightGETs = Locked([String: Task<HTTPResponse, any Error>]())

    /// A client for the API at `baseURL`, on `transport`.
    public init(baseURL: URL, transport: any Transport = URLSessionTransport()) {
        self.baseURL = baseURL
        self.baseDirectory = URLResolution.directory(of: baseURL)
        self.transport = transport
        self.settings = Locked(Settings())
        self.activity = ActivityCounter()
    }

    /// Headers sent with every request; a request's own headers of the same name win.
    public var headers: HTTPHeaders {
        get { settings.withLock { $0.headers } }
        set { settings.withLock { $0.headers = newValue } }
    }

    /// How requests authenticate, or nil for none.
    public var auth: HTTPAuth? {
        get { settings.withLock { $0.auth } }
        set { settings.withLock { $0.auth = newValue } }
    }

    /// Interceptors, applied in order to each attempt.
    public var interceptors: [any HTTPInterceptor] {
        get { settings.withLock { $0.interceptors } }
        set { settings.withLock { $0.interceptors = newValue } }
    }

    /// When failed requests are tried again.
    public var retryPolicy: RetryPolicy {
        get { settings.withLock { $0.retryPolicy } }
        set { settings.withLock { $0.retryPolicy = newValue } }
    }

    /// How redirects are followed.
    public var redirectPolicy: RedirectPolicy {
        get { settings.withLock { $0.redirectPolicy } }
        set { settings.withLock { $0.redirectPolicy = newValue } }
    }

    /// How long a connection may stay idle before a request fails (60 s by default).
    public var timeout: Duration {
        get { settings.withLock { $0.timeout } }
        set { settings.withLock { $0.timeout = newValue } }
    }

    /// The longest a whole request may take, retries and redirects included; nil for no limit.
    public var resourceTimeout: Duration? {
        get { settings.withLock { $0.resourceTimeout } }
        set { settings.withLock { $0.resourceTimeout = newValue } }
    }

    /// The largest body kept in memory, in bytes (50 MiB by default); downloads to a file are
    /// not limited by it.
    public var maxResponseSize: Int {
        get { settings.withLock { $0.maxResponseSize } }
        set { settings.withLock { $0.maxResponseSize = newValue } }
    }

    /// The statuses that count as success; nil means 200–299.
    public var acceptableStatus: Set<Int>? {
        get { settings.withLock { $0.acceptableStatus } }
        set { settings.withLock { $0.acceptableStatus = newValue } }
    }

    /// Whether identical GETs in flight at the same time share one exchange (off by default).
    public var sharesIdenticalGETs: Bool {
        get { settings.withLock { $0.sharesIdenticalGETs } }
        set { settings.withLock { $0.sharesIdenticalGETs = newValue } }
    }

    /// How JSON bodies are encoded and decoded.
    public var jsonCoder: JSONBodyCoder {
        get { settings.withLock { $0.jsonCoder } }
        set { settings.withLock { $0.jsonCoder = newValue } }
    }

    /// Called with the number of requests in flight whenever it changes, from the thread that
    /// changed it: the umbrella turns 0 → 1 and 1 → 0 into `network:on` and `network:off`.
    public var onActivity: (@Sendable (Int) -> Void)? {
        get { activity.handler }
        set { activity.handler = newValue }
    }

    /// How many requests are in flight now.
    public var requestsInFlight: Int { activity.count }
}

/// Everything about a client that may change while it runs.
struct Settings: Sendable {
    var headers = HTTPHeaders()
    var auth: HTTPAuth?
    var interceptors: [any HTTPInterceptor] = []
    var retryPolicy = RetryPolicy.standard
    var redirectPolicy = RedirectPolicy.standard
    var timeout: Duration = .seconds(60)
    var resourceTimeout: Duration?
    var maxResponseSize = 50 * 1024 * 1024
    var acceptableStatus: Set<Int>?
    var sharesIdenticalGETs = false
    var jsonCoder = JSONBodyCoder.standard

    func accepts(_ status: HTTPStatus, override: Set<Int>?) -> Bool {
        if let allowed = override ?? acceptableStatus { return allowed.contains(status.code) }
        return status.isSuccess
    }
}

/// Counts requests in flight and reports each change, in order.
///
/// The handler runs under a recursive lock so `1` and `0` can never be reported out of order;
/// it may read ``HTTPClient/requestsInFlight`` but should return quickly.
final class ActivityCounter: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var _count = 0
    private var _handler: (@Sendable (Int) -> Void)?

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return _count
    }

    var handler: (@Sendable (Int) -> Void)? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return _handler
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            _handler = newValue
        }
    }

    func begin() { change(by: 1) }
    func end() { change(by: -1) }

    private func change(by delta: Int) {
        lock.lock()
        defer { lock.unlock() }
        _count += delta
        _handler?(_count)
    }
}
