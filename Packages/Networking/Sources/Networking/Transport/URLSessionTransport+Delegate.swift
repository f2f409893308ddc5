import Foundation
import _KitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Routes session callbacks to the ``Exchange`` of each task.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let exchanges = Locked([Int: Exchange]())

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    /// Forgets the exchange of `task`, which has ended: later callbacks for the task are ignored.
    func unregister(_ task: URLSessionTask) {
        exchanges.withLock { _ = $0.removeValue(forKey: task.taskIdentifier) }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    /// Stops `task` after its exchange ended early (cancelled, or failed by the receiver or the
    /// response): forgets the exchange and cancels the task without waiting for the work queue.
    func abandon(_ task: URLSessionTask) {
        unregister(task)
        // FoundationNetworking ignores a `.cancel` disposition and would go on loading the body,
        // so a head refused for its Content-Length would still be read in full: cancel the task.
        cancelLater(task)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let exchange = exchange(for: dataTask) else { return completionHandler(.cancel) }
        guard let http = response as? HTTPURLResponse, let url = http.url ?? dataTask.originalRequest?.url else {
            exchange.fail(URLError(.badServerResponse))
            completionHandler(.cancel)
            return abandon(dataTask)
        }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers.add(name.base as? String ?? String(describing: name), value as? String ?? String(describing: value))
        }
        var head = ResponseHead(status: HTTPStatus(http.statusCode), headers: headers, url: url)
        // URLSession (libcurl on Linux) decodes every content coding it accepts, and fails the
        // task on one it does not know, so a coded body always arrives decoded.
        head.isContentDecoded = head.hasContentCoding
        switch exchange.deliver({ try $0.receive(head: head) }) {
        case .delivered:
            completionHandler(.allow)
        case .dropped:
            // The exchange ended (it was cancelled): its task is being cancelled already.
            completionHandler(.cancel)
        case .failed:
            completionHandler(.cancel)
            abandon(dataTask)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // Chunks that arrive after the exchange ended (before the cancel takes effect) are dropped.
        guard let exchange = exchange(for: dataTask) else { return }
        if case .failed = exchange.deliver({ try $0.receive(data) }) {
            abandon(dataTask)
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let exchange = exchange(for: task) else { return }
        let total = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : exchange.uploadLength
        _ = exchange.deliver { $0.sent(totalBytesSent, of: total) }
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
        exchange?.complete(transportError: error)
    }
}
