import Foundation

extension HTTPClient {
    /// Downloads `path` to the file at `destination` and returns its URL.
    ///
    /// The body streams to `destination` + `.partial` beside it. The status is checked
    /// **before** anything is written — an error page is never saved as the file — and the size
    /// is checked against `Content-Length` before the file is moved into place, replacing any
    /// file there (a body the transport decoded from gzip or the like has no length to check:
    /// its `Content-Length` counts the encoded bytes, see ``ResponseHead/isContentDecoded``).
    ///
    /// When a `.partial` file is left from an interrupted download of the **same URL** and its
    /// response had a strong validator (an `ETag` that is not weak, or a `Last-Modified` at least
    /// 60 s older than the response's `Date`), the download resumes with `Range` and `If-Range`.
    /// A partial file from another URL, another version (a `206` whose validator differs, from a
    /// server that ignored `If-Range`) or another range is discarded and the download starts
    /// over: bytes of two files are never spliced. A decoded body is never resumed.
    ///
    /// - Parameters:
    ///   - path: the file's path, relative to the base URL.
    ///   - destination: where the complete file goes; its folder must exist.
    ///   - query: query items, percent-encoded for you.
    ///   - headers: headers for this request; they win over the client's.
    ///   - resumable: whether to resume from, and to keep, a partial file.
    ///   - progress: called as bytes arrive; `fractionCompleted` counts resumed bytes too. It
    ///     runs on the transport's thread, between reads: keep it quick (update a value, hop to
    ///     the main actor), as the client's other transfers wait while it runs.
    /// - Returns: `destination`, now holding the complete file.
    @discardableResult
    public func download(
        _ path: String, to destination: URL, query: [String: String] = [:], headers: HTTPHeaders = HTTPHeaders(),
        resumable: Bool = true, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> URL {
        let partial = PartialDownload(destination: destination)
        if !resumable { partial.discard() }
        var restarts = 0
        while true {
            var request = HTTPRequest(method: .get, path: path, query: query, headers: headers)
            let sourceURL = try URLResolution.url(
                base: baseURL, directory: baseDirectory, path: request.path, query: request.query)
            let resume = partial.resumePoint(for: sourceURL)
            if let resume {
                request.headers["Range"] = "bytes=\(resume.offset)-"
                request.headers["If-Range"] = resume.validator
            }
            let offset = resume?.offset ?? 0
            let settings = self.settings.withLock { $0 }
            let acceptable: @Sendable (HTTPStatus) -> Bool = { [request] in
                settings.accepts($0, override: request.acceptableStatus)
            }
            let result: Exchanged<FileReceiver>
            do {
                result = try await exchange(request, settings: settings) { _ in
                    try FileReceiver(
                        partial: partial, sourceURL: sourceURL, resume: resume, acceptable: acceptable,
                        progress: progress)
                }
            } catch HTTPClientError.transport(_, let underlying) where underlying is ResumeMismatch && restarts < 3 {
                // The server sent a range of another version (it ignored If-Range): start over.
                partial.discard()
                restarts += 1
                continue
            }
            let receiver = result.receiver
            try receiver.close()
            if result.head.status == .rangeNotSatisfiable, offset > 0, restarts == 0 {
                partial.discard()
                restarts += 1
                continue
            }
            guard acceptable(result.head.status) else {
                throw HTTPClientError.unacceptableStatus(
                    result.head.status, body: receiver.errorBody, headers: result.head.headers, request: result.request)
            }
            do {
                try receiver.verify(url: result.head.url)
            } catch {
                partial.discard()  // a corrupt partial must never be resumed
                throw error
            }
            if let total = receiver.totalSize, partial.size < total, restarts < 1_000 {
                restarts += 1
                continue
            }
            if !resumable { partial.discardRecord() }
            return try partial.moveIntoPlace()
        }
    }
}
