import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``Transport``: URLSession on Apple platforms, FoundationNetworking's on Linux.
///
/// It drives data and upload tasks through a session delegate rather than the async
/// convenience methods, which sidesteps the Linux traps: `bytes(for:)` does not exist there,
/// `download(for:delegate:)` could write a body twice, a data task's `progress` stays at 0,
/// and cancellation arrives as `URLError(.cancelled)`. Bodies stream to a
/// ``ResponseReceiver`` chunk by chunk, redirects are handed back to ``HTTPClient`` (which
/// strips credentials across origins itself), and a cancelled task throws `CancellationError`.
/// TLS is validated by the system: this transport never answers authentication challenges.
///
/// On Linux the session's delegate callbacks run on the session's own serial work queue rather
/// than hopping to an `OperationQueue` (as `data(for:)` delivers its completion there too), so a
/// receiver should return quickly: while it runs, the session's other transfers wait.
public final class URLSessionTransport: Transport {
    /// The session every request runs on.
    ///
    /// On Linux its `delegateQueue` runs each block at once on the session's work queue. A task
    /// you start on this session with a completion handler gets that handler there too, so the
    /// handler must not call the session or a task synchronously (`dataTask(with:)`, `cancel()`
    /// and `invalidateAndCancel()` wait for that queue); start follow-up work on another queue.
    public let session: URLSession
    private let delegate: SessionDelegate

    /// A transport on a new session built from `configuration`.
    ///
    /// The default configuration is ephemeral (no disk cache, no shared cookie jar), since a
    /// client talks to APIs whose caching it manages itself.
    public init(configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration()) {
        let delegate = SessionDelegate()
        #if canImport(FoundationNetworking)
            // Callbacks run on the session's own serial work queue, as `data(for:)` completes.
            let queue: OperationQueue = InlineDelegateQueue()
            queue.name = "Networking.URLSessionTransport"
        #else
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.name = "Networking.URLSessionTransport"
        #endif
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// An ephemeral configuration without a URL cache, and with the resource timeout left to
    /// ``HTTPClient``.
    public static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = 16
        return configuration
    }

    /// Sends `request` on the session and streams the response to `receiver`.
    public func perform(_ request: OutgoingRequest, receiver: any ResponseReceiver) async throws {
        try Task.checkCancellation()
        let urlRequest = Self.urlRequest(for: request)
        let task: URLSessionTask
        switch request.body {
        case .empty: task = session.dataTask(with: urlRequest)
        case .data(let data): task = session.uploadTask(with: urlRequest, from: data)
        case .file(let url): task = session.uploadTask(with: urlRequest, fromFile: url)
        }
        let exchange = Exchange(receiver: receiver, uploadLength: request.body.length)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                exchange.continuation = continuation
                delegate.register(exchange, for: task)
                task.resume()
            }
        } onCancel: {
            exchange.markCancelled()
            cancelLater(task)
        }
    }

    static func urlRequest(for request: OutgoingRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        if let timeout = request.timeout { urlRequest.timeoutInterval = timeout }
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        return urlRequest
    }
}

/// One task's state, touched by the delegate queue and the cancelling task.
final class Exchange: @unchecked Sendable {
    let receiver: any ResponseReceiver
    let uploadLength: Int64?
    private let lock = NSLock()
    private var _continuation: CheckedContinuation<Void, any Error>?
    private var failure: (any Error)?
    private var cancelled = false

    init(receiver: any ResponseReceiver, uploadLength: Int64?) {
        self.receiver = receiver
        self.uploadLength = uploadLength
    }

    var continuation: CheckedContinuation<Void, any Error>? {
        get { lock.withLock { _continuation } }
        set { lock.withLock { _continuation = newValue } }
    }

    func markCancelled() {
        lock.withLock { cancelled = true }
    }

    /// Whether the receiver has stopped the exchange.
    var hasFailed: Bool { lock.withLock { failure != nil } }

    /// Remembers why the receiver stopped the exchange, so completion reports it.
    func fail(_ error: any Error) {
        lock.withLock { if failure == nil { failure = error } }
    }

    func finish(transportError: (any Error)?) {
        lock.lock()
        let continuation = _continuation
        let failure = self.failure
        let cancelled = self.cancelled
        _continuation = nil
        lock.unlock()
        guard let continuation else { return }
        if let failure {
            continuation.resume(throwing: failure)
        } else if cancelled || (transportError as? URLError)?.code == .cancelled {
            continuation.resume(throwing: CancellationError())
        } else if let transportError {
            continuation.resume(throwing: transportError)
        } else {
            continuation.resume()
        }
    }
}
