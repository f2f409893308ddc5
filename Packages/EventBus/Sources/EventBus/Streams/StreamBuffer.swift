import _KitSupport

/// The queue between a stream's subscriber (the bus, on the triggering thread) and its one
/// consumer (a task iterating the ``EventStream``).
///
/// It replaces an `AsyncStream`, whose `next()` pays for a cancellation handler and a
/// continuation on every call, even when an event is already waiting. Here a consumer that finds
/// an event takes it under the lock and returns without suspending; only a consumer that finds
/// the queue empty installs a cancellation handler and waits on a continuation, which the next
/// `yield` (or the end of the subscription) resumes.
///
/// The buffering policy and the count of dropped events live under the same lock, so
/// triggering an event is one lock, one append. Once finished (the subscription ended), the
/// buffer holds nothing, takes nothing, and every `next` returns nil.
///
/// The hot paths are inlinable, so that they are specialised for the event type where the
/// stream is made and iterated: unspecialised, every call looked up generic metadata.
@usableFromInline
final class StreamBuffer<Element: Sendable>: @unchecked Sendable {
    // @unchecked: everything below is guarded by `lock`.
    @usableFromInline let lock = FastLock()
    @usableFromInline let buffering: EventBuffering
    /// The waiting events are `items[head...]`; taken ones before `head` are dropped lazily.
    @usableFromInline @exclusivity(unchecked) var items: ContiguousArray<Element> = []
    @usableFromInline @exclusivity(unchecked) var head = 0
    /// The consumer, while it waits for an event.
    @usableFromInline @exclusivity(unchecked) var waiter: UnsafeContinuation<Element?, Never>?
    @usableFromInline @exclusivity(unchecked) var isFinished = false
    @usableFromInline @exclusivity(unchecked) var dropped = 0

    @usableFromInline
    init(buffering: EventBuffering) {
        self.buffering = buffering
    }

    /// The number of events the buffering policy discarded so far.
    var droppedCount: Int { lock.withLock { dropped } }

    /// The number of events waiting.
    @inlinable var waiting: Int { items.count - head }

    /// Hands `element` to the waiting consumer, or queues it as the buffering policy allows.
    /// Called by the subscription, on the triggering thread (possibly under the bus lock, for a
    /// replay), so it never calls back into the bus.
    @inlinable
    func yield(_ element: Element) {
        lock.lock()
        if isFinished {
            lock.unlock()
            return
        }
        if let waiter {
            // A waiting consumer means nothing is queued: it takes the event itself.
            self.waiter = nil
            lock.unlock()
            waiter.resume(returning: element)
            return
        }
        switch buffering {
        case .unbounded:
            items.append(element)
        case .newest(let limit):
            if waiting >= max(0, limit) {
                dropped += 1
                if limit > 0 {
                    head += 1
                    items.append(element)
                }
            } else {
                items.append(element)
            }
        case .oldest(let limit):
            if waiting >= max(0, limit) {
                dropped += 1
            } else {
                items.append(element)
            }
        }
        lock.unlock()
    }

    /// Ends the stream: what was queued is discarded, and the consumer, if it waits, gets nil.
    @usableFromInline
    func finish() {
        lock.lock()
        isFinished = true
        items = []
        head = 0
        let waiter = waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume(returning: nil)
    }

    /// The next queued event without waiting: `.some(event)`, `.some(nil)` when the stream has
    /// ended, or nil when the consumer must wait.
    @inlinable
    func poll() -> Element?? {
        lock.lock()
        defer { lock.unlock() }
        return take()
    }

    /// The next event, waiting for one if none is queued; nil once the stream has ended.
    /// `cancel` ends the subscription when the consuming task is cancelled while it waits.
    @usableFromInline
    func wait(onCancel cancel: @escaping @Sendable () -> Void) async -> Element? {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Element?, Never>) in
                lock.lock()
                if let taken = take() {
                    lock.unlock()
                    continuation.resume(returning: taken)
                } else if waiter != nil {
                    // One consumer per stream: a second one, iterating at the same time, ends.
                    lock.unlock()
                    continuation.resume(returning: nil)
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The lock is held: see ``poll()``.
    @inlinable
    func take() -> Element?? {
        if head < items.count {
            let element = items[head]
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            return .some(element)
        }
        return isFinished ? .some(nil) : nil
    }
}
