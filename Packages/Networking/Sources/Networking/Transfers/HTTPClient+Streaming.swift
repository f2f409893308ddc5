import Foundation

extension HTTPClient {
    /// The body of `request` as chunks, as they arrive — what `URLSession.bytes(for:)` gives on
    /// Apple platforms, which FoundationNetworking on Linux does not have.
    ///
    /// The stream throws ``HTTPClientError/unacceptableStatus(_:body:headers:request:)`` before
    /// any chunk when the status is not acceptable. Ending the iteration cancels the request.
    public func chunks(_ request: HTTPRequest) -> AsyncThrowingStream<Data, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let settings = self.settings.withLock { $0 }
        var request = request
        // A retry after chunks were yielded would repeat them.
        request.retry = request.retry ?? .never
        let task = Task { [request] in
            do {
                let result = try await exchange(request, settings: settings) { _ in
                    StreamReceiver(
                        continuation: continuation,
                        acceptable: { settings.accepts($0, override: request.acceptableStatus) })
                }
                if !settings.accepts(result.head.status, override: request.acceptableStatus) {
                    throw HTTPClientError.unacceptableStatus(
                        result.head.status, body: result.receiver.errorBody, headers: result.head.headers,
                        request: result.request)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// Yields the chunks of an acceptable response into a stream.
final class StreamReceiver: ResponseReceiver, @unchecked Sendable {
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private let acceptable: @Sendable (HTTPStatus) -> Bool
    private let lock = NSLock()
    private var passing = false
    private var _errorBody = Data()

    init(
        continuation: AsyncThrowingStream<Data, any Error>.Continuation,
        acceptable: @escaping @Sendable (HTTPStatus) -> Bool
    ) {
        self.continuation = continuation
        self.acceptable = acceptable
    }

    var errorBody: Data { lock.withLock { _errorBody } }

    func receive(head: ResponseHead) throws {
        let passes = acceptable(head.status) && !head.status.isRedirect
        lock.withLock { passing = passes }
    }

    func receive(_ chunk: Data) throws {
        let passes = lock.withLock { () -> Bool in
            if !passing, _errorBody.count < HTTPClientError.bodyLimit { _errorBody.append(chunk) }
            return passing
        }
        if passes { continuation.yield(chunk) }
    }
}
