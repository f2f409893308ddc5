import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// The delegate queue of ``URLSessionTransport``'s session on Linux: an `OperationQueue` that
    /// runs each delegate callback at once, on the thread that hands it over.
    ///
    /// FoundationNetworking hands every delegate callback to `delegateQueue.addOperation { … }`
    /// from the session's serial work queue: the head, each chunk of the body and the completion,
    /// at least three per request. Through a real `OperationQueue` each one becomes an operation
    /// and a wake-up of another thread; at 16 requests in flight on loopback that was most of the
    /// CPU this transport spent beyond `URLSession.data(for:)`, which delivers its completion on
    /// the work queue itself (`_callCompletionHandlerInline`). This queue does the same for the
    /// delegate. The callbacks stay serial and in the order the session issued them, because the
    /// work queue is serial.
    ///
    /// Running on the work queue has two rules, which ``SessionDelegate`` and
    /// ``URLSessionTransport`` keep:
    /// - Nothing may call a `URLSessionTask` or `URLSession` method that waits for that queue
    ///   (`cancel()` does, with `sync`) from a callback or from a task-cancellation handler, which
    ///   can run while the callback resumes the waiting task: such cancels go through
    ///   ``cancelLater(_:)``.
    /// - A receiver's work runs on the session's queue, so a slow one (a progress handler, a disk
    ///   write) holds back the session's other transfers until it returns, much as it held back
    ///   their callbacks before.
    ///
    /// Only the block form is run inline; FoundationNetworking uses no other. Operations added
    /// with `addOperation(_: Operation)` still run as a plain `OperationQueue` would run them.
    final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            block()
        }
    }
#endif

/// Cancels `task` without waiting for the session's work queue, which may be the current one
/// (see `InlineDelegateQueue`) or be busy resuming a task whose cancellation handler is running.
func cancelLater(_ task: URLSessionTask) {
    #if canImport(FoundationNetworking)
        DispatchQueue.global().async { task.cancel() }
    #else
        task.cancel()
    #endif
}
