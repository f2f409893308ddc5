import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Routes session callbacks to the ``Exchange`` of each task.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let exchanges = Locked([Int: Exchange]())

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let exchange = exchange(for: dataTask) else { return completionHandler(.cancel) }
        guard let http = response as? HTTPURLResponse, let url = http.url ?? dataTask.originalRequest?.url else {
            exchange.fail(URLError(.badServerResponse))
            completionHandler(.cancel)
            // FoundationNetworking ignores the disposition and would go on loading the body.
            return cancelLater(dataTask)
        }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers.add(name.base as? String ?? String(describing: name), value as? String ?? String(describing: value))
        }
        do {
            try exchange.receiver.receive(
                head: ResponseHead(status: HTTPStatus(http.statusCode), headers: headers, url: url))
            completionHandler(.allow)
        } catch {
            exchange.fail(error)
            completionHandler(.cancel)
            // FoundationNetworking ignores the disposition and would go on loading the body, so a
            // head refused for its Content-Length would still be read in full: cancel it here.
            cancelLater(dataTask)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // Chunks that arrive after the exchange failed (before the cancel takes effect) are dropped.
        guard let exchange = exchange(for: dataTask), !exchange.hasFailed else { return }
        do {
            try exchange.receiver.receive(data)
        } catch {
            exchange.fail(error)
            cancelLater(dataTask)
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let exchange = exchange(for: task) else { return }
        let total = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : exchange.uploadLength
        exchange.receiver.sent(totalBytesSent, of: total)
    }

    /// Never follows a redirect: the 3xx response goes back to ``HTTPClient``, which decides
    /// whether and how to follow it (and strips credentials when the origin changes).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.finish(transportError: error)
    }
}
