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
    ///
    /// The connections per host stay at the system's default (6 on Linux and macOS): requests
    /// beyond that to one host wait for a connection rather than open another. Raising it to 16
    /// made 16 requests in flight slower on Linux, not faster: libcurl closed and reopened
    /// connections (14 times as many `connect` calls and 2.5 times as many `epoll_ctl` calls for
    /// the same 105 000 requests), so throughput fell by a tenth.
    public static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    /// Sends `request` on the session and streams the response to `receiver`.
    ///
    /// Cancelling the calling task ends the exchange at once with `CancellationError`, without
    /// waiting for the session to report the cancelled task (FoundationNetworking can lose that
    /// report). Once this method returns or throws, `receiver` is not called again.
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
        let delegate = self.delegate
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                delegate.register(exchange, for: task)
                if exchange.start(continuation) {
                    task.resume()
                } else {
                    // Cancelled before it started: the exchange has ended already.
                    delegate.abandon(task)
                }
            }
        } onCancel: {
            exchange.cancel()
            delegate.abandon(task)
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

/// One task's state, shared by the session's delegate queue and the cancelling task.
///
/// The exchange ends exactly once, with the first of: the task's completion, the receiver's
/// failure, or the cancellation of the calling task. The last two end it at once rather than
/// when the session reports the cancelled task, a report FoundationNetworking can lose.
///
/// Every call to the receiver goes through ``deliver(_:)``, which starts none once an outcome
/// is decided. An outcome decided while a call runs (a cancel from another thread, or from the
/// receiver's own progress handler) is held until that call returns, and only then resumes the
/// waiting task: once `perform` returns, no receiver call is running or will start. The lock
/// is never held while the receiver runs, so the receiver may re-enter (cancel its task, fail
/// the exchange) without deadlock.
final class Exchange: @unchecked Sendable {
    /// How a call to the receiver went.
    enum Delivery {
        /// The receiver took it.
        case delivered
        /// The exchange had ended: the receiver was not called.
        case dropped
        /// The receiver threw, and the exchange has ended with its error.
        case failed
    }

    let uploadLength: Int64?
    private let receiver: any ResponseReceiver
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, any Error>?
    /// The decided outcome; set once, and from then on the receiver is not called again.
    private var outcome: Result<Void, any Error>?
    /// Whether a receiver call is running: the continuation waits for it to return.
    private var delivering = false
    /// Whether the continuation has been resumed.
    private var resumed = false

    init(receiver: any ResponseReceiver, uploadLength: Int64?) {
        self.receiver = receiver
        self.uploadLength = uploadLength
    }

    /// Hands over the waiting task's continuation. Returns false when the exchange has already
    /// ended (it was cancelled first): the continuation has then been resumed, and the
    /// URLSession task must not be started.
    func start(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        lock.lock()
        self.continuation = continuation
        let ending = takeEnding()
        lock.unlock()
        guard let ending else { return true }
        ending.continuation.resume(with: ending.outcome)
        return false
    }

    /// Calls the receiver with `call`, unless the exchange has ended. Calls come from the
    /// session's serial delegate queue, one at a time.
    func deliver(_ call: (any ResponseReceiver) throws -> Void) -> Delivery {
        let open = lock.withLock { () -> Bool in
            guard outcome == nil, !delivering else { return false }
            delivering = true
            return true
        }
        guard open else { return .dropped }
        var failure: (any Error)?
        do {
            try call(receiver)
        } catch {
            failure = error
        }
        lock.lock()
        delivering = false
        if let failure, outcome == nil { outcome = .failure(failure) }
        let ending = takeEnding()
        lock.unlock()
        if let ending { ending.continuation.resume(with: ending.outcome) }
        return failure == nil ? .delivered : .failed
    }

    /// Ends the exchange with `CancellationError`: the calling task was cancelled.
    func cancel() {
        end(.failure(CancellationError()))
    }

    /// Ends the exchange with `error`, unless it has ended already.
    func fail(_ error: any Error) {
        end(.failure(error))
    }

    /// Ends the exchange as the session reports the task complete.
    func complete(transportError: (any Error)?) {
        guard let transportError else { return end(.success(())) }
        if (transportError as? URLError)?.code == .cancelled {
            end(.failure(CancellationError()))
        } else {
            end(.failure(transportError))
        }
    }

    private func end(_ result: Result<Void, any Error>) {
        lock.lock()
        if outcome == nil { outcome = result }
        let ending = takeEnding()
        lock.unlock()
        if let ending { ending.continuation.resume(with: ending.outcome) }
    }

    /// The continuation to resume and how, once there is an outcome, a continuation and no
    /// receiver call running; nil otherwise or when it was taken already. Call with the lock held.
    private func takeEnding() -> (continuation: CheckedContinuation<Void, any Error>, outcome: Result<Void, any Error>)?
    {
        guard !resumed, !delivering, let outcome, let continuation else { return nil }
        resumed = true
        self.continuation = nil
        return (continuation, outcome)
    }
}
