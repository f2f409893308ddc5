import Foundation

extension HTTPClient {
    /// Downloads `path` to the file at `destination` and returns its URL.
    ///
    /// The body streams to `destination` + `.partial` beside it. The status is checked
    /// **before** anything is written — an error page is never saved as the file — and the size
    /// is checked against `Content-Length` before the file is moved into place, replacing any
    /// file there. When a `.partial` file is left from an interrupted download and the server
    /// supports ranges, the download resumes with `Range` (and `If-Range`, so a changed file
    /// starts over).
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
            let offset = partial.resumableOffset()
            if offset > 0, let validator = partial.validator {
                request.headers["Range"] = "bytes=\(offset)-"
                request.headers["If-Range"] = validator
            }
            let settings = self.settings.current
            let acceptable: @Sendable (HTTPStatus) -> Bool = { [request] in
                settings.accepts($0, override: request.acceptableStatus)
            }
            let result = try await exchange(request, settings: settings) { _ in
                try FileReceiver(partial: partial, acceptable: acceptable, progress: progress)
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
            if !resumable { partial.discardValidator() }
            return try partial.moveIntoPlace()
        }
    }
}
