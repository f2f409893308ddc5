import Foundation

extension HTTPClient {
    /// Sends `request` and returns the whole response once its status is acceptable.
    ///
    /// - Throws: ``HTTPClientError/unacceptableStatus(_:body:headers:request:)`` for a status
    ///   outside the acceptable range (2xx by default), `CancellationError` when the task is
    ///   cancelled, or another ``HTTPClientError``.
    @discardableResult
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await send(request, settings: settings.withLock { $0 })
    }

    /// Sends `request` and decodes the response body by its content type.
    public func send<T: Decodable>(_ request: HTTPRequest, as type: T.Type = T.self) async throws -> T {
        let settings = self.settings.withLock { $0 }
        let response = try await send(request, settings: settings)
        return try response.decode(T.self, using: settings.jsonCoder)
    }

    /// Sends `request`, reporting download and upload progress as bytes move.
    ///
    /// The handlers run on the transport's thread, between reads: keep them quick (update a
    /// value, hop to the main actor), as the client's other transfers wait while they run.
    @discardableResult
    public func send(
        _ request: HTTPRequest, progress: (@Sendable (TransferProgress) -> Void)?,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> HTTPResponse {
        try await buffered(
            request, settings: settings.withLock { $0 }, progress: progress, uploadProgress: uploadProgress)
    }

    /// `GET path?query`, decoded as `T`.
    public func get<T: Decodable>(
        _ path: String, query: [String: String] = [:], headers: HTTPHeaders = HTTPHeaders()
    ) async throws -> T {
        try await send(HTTPRequest(method: .get, path: path, query: query, headers: headers))
    }

    /// `POST path` with a JSON body, the reply decoded as `T`.
    public func post<T: Decodable>(
        _ path: String, json: some Encodable & Sendable, headers: HTTPHeaders = HTTPHeaders()
    ) async throws -> T {
        try await send(HTTPRequest(method: .post, path: path, headers: headers, json: json))
    }

    /// `POST path` with any body, returning the response.
    @discardableResult
    public func post(
        _ path: String, body: RequestBody = .empty, headers: HTTPHeaders = HTTPHeaders()
    ) async throws -> HTTPResponse {
        try await send(HTTPRequest(method: .post, path: path, headers: headers, body: body))
    }

    /// `PUT path` with a JSON body, the reply decoded as `T`.
    public func put<T: Decodable>(
        _ path: String, json: some Encodable & Sendable, headers: HTTPHeaders = HTTPHeaders()
    ) async throws -> T {
        try await send(HTTPRequest(method: .put, path: path, headers: headers, json: json))
    }

    /// `PATCH path` with a JSON body, the reply decoded as `T`.
    public func patch<T: Decodable>(
        _ path: String, json: some Encodable & Sendable, headers: HTTPHeaders = HTTPHeaders()
    ) async throws -> T {
        try await send(HTTPRequest(method: .patch, path: path, headers: headers, json: json))
    }

    /// `DELETE path`, returning the response.
    @discardableResult
    public func delete(
        _ path: String, query: [String: String] = [:], headers: HTTPHeaders = HTTPHeaders()
    ) async throws -> HTTPResponse {
        try await send(HTTPRequest(method: .delete, path: path, query: query, headers: headers))
    }

    /// `HEAD path`, returning the response (with an empty body).
    @discardableResult
    public func head(_ path: String, headers: HTTPHeaders = HTTPHeaders()) async throws -> HTTPResponse {
        try await send(HTTPRequest(method: .head, path: path, headers: headers))
    }

    /// Uploads a file as the body of `method path` (POST by default), streaming it from disk.
    @discardableResult
    public func upload(
        _ path: String, method: HTTPMethod = .post, file: URL, contentType: String? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> HTTPResponse {
        let request = HTTPRequest(method: method, path: path, body: .file(file, contentType: contentType))
        return try await buffered(request, settings: settings.withLock { $0 }, uploadProgress: progress)
    }

    /// ``send(_:)`` with the settings the request started with.
    private func send(_ request: HTTPRequest, settings: Settings) async throws -> HTTPResponse {
        if request.method == .get, case .empty = request.body, settings.sharesIdenticalGETs {
            return try await sharedGET(request, settings: settings)
        }
        return try await buffered(request, settings: settings)
    }

    func buffered(
        _ request: HTTPRequest, settings: Settings, progress: (@Sendable (TransferProgress) -> Void)? = nil,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> HTTPResponse {
        let limit = settings.maxResponseSize
        let result = try await exchange(request, settings: settings) { outgoing in
            BufferReceiver(
                limit: limit, expectsBody: outgoing.method != .head, progress: progress, uploadProgress: uploadProgress)
        }
        let body = result.receiver.data
        if let progress, result.head.deliveredContentLength == nil || request.method == .head {
            progress(TransferProgress(completedBytes: Int64(body.count), totalBytes: Int64(body.count)))
        }
        guard settings.accepts(result.head.status, override: request.acceptableStatus) else {
            throw HTTPClientError.unacceptableStatus(
                result.head.status, body: Data(body.prefix(HTTPClientError.bodyLimit)), headers: result.head.headers,
                request: result.request)
        }
        return HTTPResponse(
            status: result.head.status, headers: result.head.headers, body: body, url: result.head.url,
            request: result.request)
    }

    /// Joins an identical GET already in flight, or starts one others may join.
    ///
    /// Identical means the same request *from the same caller*: the key is what would go on the
    /// wire — the resolved URL and every header after the client's session headers and the
    /// auth are applied — so after a user switch (new token, cookie or session header) a
    /// request never receives the previous user's response.
    private func sharedGET(_ request: HTTPRequest, settings: Settings) async throws -> HTTPResponse {
        let prepared = try await prepare(request, settings: settings).request
        var key = prepared.url.absoluteString
        for field in prepared.headers { key += "\n\(field.name.lowercased()): \(field.value)" }
        if let acceptable = request.acceptableStatus { key += "\n\(acceptable.sorted())" }
        let task = inFlightGETs.withLock { tasks -> Task<HTTPResponse, any Error> in
            if let running = tasks[key] { return running }
            let task = Task { try await self.buffered(request, settings: settings) }
            tasks[key] = task
            return task
        }
        defer { inFlightGETs.withLock { tasks in if tasks[key] == task { tasks[key] = nil } } }
        return try await task.value
    }
}
