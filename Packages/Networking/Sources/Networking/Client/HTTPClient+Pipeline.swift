import Foundation

/// The outcome of one request's exchange chain: the final head, its receiver and what was sent.
struct Exchanged<Receiver: ResponseReceiver>: Sendable {
    var head: ResponseHead
    var receiver: Receiver
    var request: OutgoingRequest
}

extension HTTPClient {
    /// Runs `request` through auth, interceptors, redirects, the 401 refresh and retries,
    /// within the resource timeout, counting it as activity.
    ///
    /// `settings` are the client's settings as the request started: the caller reads them once
    /// (one copy per request) and uses the same ones to judge the status and decode the body.
    /// `makeReceiver` is called for every hop and attempt, so a retry starts from an empty
    /// buffer or file. The status is not validated here.
    func exchange<Receiver: ResponseReceiver>(
        _ request: HTTPRequest, settings: Settings,
        makeReceiver: @escaping @Sendable (OutgoingRequest) throws -> Receiver
    ) async throws -> Exchanged<Receiver> {
        activity.begin()
        defer { activity.end() }
        guard let limit = request.resourceTimeout ?? settings.resourceTimeout else {
            return try await attempts(request, settings: settings, makeReceiver: makeReceiver)
        }
        return try await withThrowingTaskGroup(of: Exchanged<Receiver>?.self) { group in
            group.addTask { try await self.attempts(request, settings: settings, makeReceiver: makeReceiver) }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                // Named without preparing again, which could ask the token provider for a token.
                let url = (try? URLResolution.url(base: baseURL, path: request.path, query: request.query)) ?? baseURL
                throw HTTPClientError.timedOut(request: OutgoingRequest(method: request.method, url: url), after: limit)
            }
            return result
        }
    }

    private func attempts<Receiver: ResponseReceiver>(
        _ request: HTTPRequest, settings: Settings,
        makeReceiver: @escaping @Sendable (OutgoingRequest) throws -> Receiver
    ) async throws -> Exchanged<Receiver> {
        let policy = request.retry ?? settings.retryPolicy
        var attempt = 1
        var refreshed = false
        while true {
            try Task.checkCancellation()
            var (outgoing, token) = try await prepare(request, settings: settings)
            for interceptor in settings.interceptors {
                outgoing = try await interceptor.adapt(outgoing)
            }
            try RequestValidation.check(outgoing.headers)
            if RequestValidation.hasControlCharacter(outgoing.url.absoluteString) {
                throw HTTPClientError.invalidURL(outgoing.url.absoluteString, reason: "it contains a control character")
            }
            let result: Exchanged<Receiver>
            do {
                result = try await followingRedirects(
                    outgoing, policy: settings.redirectPolicy, makeReceiver: makeReceiver)
            } catch let error as HTTPClientError {
                for interceptor in settings.interceptors { await interceptor.failed(outgoing, with: error) }
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                for interceptor in settings.interceptors { await interceptor.failed(outgoing, with: error) }
                if policy.allows(outgoing.method), RetryPolicy.isRetryable(error),
                    let delay = policy.delay(beforeRetry: attempt)
                {
                    try await policy.sleep(delay)
                    attempt += 1
                    continue
                }
                throw HTTPClientError.transport(request: outgoing, underlying: error)
            }
            if !settings.interceptors.isEmpty {
                let body = (result.receiver as? BufferReceiver)?.data ?? Data()
                let response = HTTPResponse(
                    status: result.head.status, headers: result.head.headers, body: body, url: result.head.url,
                    request: result.request)
                for interceptor in settings.interceptors { try await interceptor.inspect(response) }
            }
            if result.head.status == .unauthorized, !refreshed, request.authenticated,
                case .refreshing(let provider) = settings.auth, outgoing.headers.contains("Authorization")
            {
                _ = try await provider.refresh(rejected: token)
                refreshed = true
                continue
            }
            if policy.retryableStatuses.contains(result.head.status.code), policy.allows(outgoing.method),
                let delay = policy.delay(beforeRetry: attempt, retryAfter: result.head.headers["Retry-After"])
            {
                try await policy.sleep(delay)
                attempt += 1
                continue
            }
            return result
        }
    }

    private func followingRedirects<Receiver: ResponseReceiver>(
        _ request: OutgoingRequest, policy: RedirectPolicy,
        makeReceiver: @escaping @Sendable (OutgoingRequest) throws -> Receiver
    ) async throws -> Exchanged<Receiver> {
        var current = request
        var redirects = 0
        while true {
            let receiver = try makeReceiver(current)
            let head = try await perform(current, receiver: receiver)
            guard let next = try policy.nextRequest(after: current, head: head) else {
                return Exchanged(head: head, receiver: receiver, request: current)
            }
            redirects += 1
            if redirects > policy.limit {
                throw HTTPClientError.tooManyRedirects(limit: policy.limit, url: head.url)
            }
            current = next
        }
    }

    /// One exchange on the transport; the head is captured by a thin wrapper so any receiver works.
    private func perform(_ request: OutgoingRequest, receiver: some ResponseReceiver) async throws -> ResponseHead {
        let capture = HeadCapture(inner: receiver)
        try await transport.perform(request, receiver: capture)
        guard let head = capture.head else { throw URLError(.badServerResponse) }
        return head
    }

    /// Resolves the URL, merges headers, encodes the body and attaches credentials.
    func prepare(_ request: HTTPRequest, settings: Settings) async throws -> (request: OutgoingRequest, token: String?)
    {
        let url = try URLResolution.url(
            base: baseURL, directory: baseDirectory, path: request.path, query: request.query)
        var headers = settings.headers.merging(request.headers)
        let encoded: (body: OutgoingBody, contentType: String?)
        do {
            encoded = try request.body.encoded(with: settings.jsonCoder)
        } catch let error as HTTPClientError {
            throw error
        } catch {
            throw HTTPClientError.encodingFailed(type: request.body.typeName, underlying: error)
        }
        if let contentType = encoded.contentType, !headers.contains("Content-Type") {
            headers["Content-Type"] = contentType
        }
        var token: String?
        if request.authenticated, let auth = settings.auth, !headers.contains("Authorization"),
            Origin(url).matches(Origin(baseURL))
        {
            let authorization = try await auth.authorization()
            headers["Authorization"] = authorization.header
            token = authorization.token
        }
        let timeout = request.timeout ?? settings.timeout
        let outgoing = OutgoingRequest(
            method: request.method, url: url, headers: headers, body: encoded.body,
            timeout: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        return (outgoing, token)
    }
}

/// Remembers the head that passes through to another receiver.
private final class HeadCapture<Inner: ResponseReceiver>: ResponseReceiver, @unchecked Sendable {
    let inner: Inner
    private let lock = NSLock()
    private var _head: ResponseHead?

    init(inner: Inner) { self.inner = inner }

    var head: ResponseHead? { lock.withLock { _head } }

    func receive(head: ResponseHead) throws {
        lock.withLock { _head = head }
        try inner.receive(head: head)
    }

    func receive(_ chunk: Data) throws { try inner.receive(chunk) }

    func sent(_ bytes: Int64, of total: Int64?) { inner.sent(bytes, of: total) }
}

extension RequestBody {
    var typeName: String {
        switch self {
        case .json(let value): String(describing: type(of: value))
        case .empty: "empty body"
        case .form: "form"
        case .multipart: "multipart form"
        case .data: "Data"
        case .file: "file"
        }
    }
}
