/// How many undelivered events an ``EventStream`` keeps for a consumer that lags behind.
public enum EventBuffering: Sendable, Hashable {
    /// Keep every event; memory grows while the consumer lags.
    case unbounded
    /// Keep the newest `limit` events, dropping the oldest.
    case newest(Int)
    /// Keep the oldest `limit` events, dropping new ones.
    case oldest(Int)

    func policy<Value>(for type: Value.Type) -> AsyncStream<Value>.Continuation.BufferingPolicy {
        switch self {
        case .unbounded: .unbounded
        case .newest(let limit): .bufferingNewest(max(0, limit))
        case .oldest(let limit): .bufferingOldest(max(0, limit))
        }
    }
}

/// The events of one type as an `AsyncSequence`, from ``Bus/events(of:from:replayLast:buffering:file:line:)``.
///
/// The subscription starts when the stream is made, so nothing triggered between making it and
/// iterating it is lost (within the buffering policy). It ends when the iteration ends (a
/// `break`, the task's cancellation) or the stream and its iterator are released, or the bus
/// closes. Events the buffering policy dropped are counted in ``droppedCount`` — never dropped
/// silently. One consumer per stream.
public struct EventStream<Element: Event>: AsyncSequence, Sendable {
    let stream: AsyncStream<Element>
    let token: WatchToken
    let dropped: Locked<Int>

    /// The number of events the buffering policy discarded so far.
    public var droppedCount: Int { dropped.current }

    /// Ends the subscription; iteration then finishes, discarding what was buffered.
    public func cancel() { token.cancel() }

    /// Makes the stream's iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator(), token: token)
    }

    /// Iterates an ``EventStream``.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<Element>.Iterator
        /// Held so that releasing the iterator (after a `break`) ends the subscription.
        let token: WatchToken

        /// The next event, or nil once the subscription has ended.
        public mutating func next() async -> Element? {
            guard !token.isCancelled else { return nil }
            return await base.next()
        }
    }
}

extension Bus {
    /// The events of one type, as an `AsyncSequence`.
    ///
    /// ```swift
    /// for await activity in bus.events(of: NetworkActivity.self) { print(activity) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The event type.
    ///   - sender: If given, only events triggered from this object (by identity; held weakly).
    ///   - replayLast: Start with the last event of the type triggered on this bus, if any — the
    ///     current state, for state-like events. Pass `false` for only new events.
    ///   - buffering: What to keep while the consumer lags; dropped events are counted.
    ///   - file: The file making the subscription, for leak reports (``SubscriptionInfo``).
    ///   - line: The line making the subscription, for leak reports.
    /// - Returns: A single-consumer stream of events.
    public func events<E: Event>(
        of type: E.Type, from sender: AnyObject? = nil, replayLast: Bool = true, buffering: EventBuffering = .unbounded,
        file: StaticString = #fileID, line: UInt = #line
    ) -> EventStream<E> {
        let (stream, continuation) = makeStream(of: E.self, buffering: buffering.policy(for: E.self))
        let dropped = Locked(0)
        let token = register(
            E.self, topic: .type(ObjectIdentifier(E.self)), sender: sender, replayLast: replayLast, isQueued: true,
            file: file, line: line, onCancel: { continuation.finish() },
            call: { _, pointer in
                if case .dropped = continuation.yield(pointer.assumingMemoryBound(to: E.self).pointee) {
                    dropped.withValue { $0 += 1 }
                }
            })
        let subscriber = token.subscriber
        continuation.onTermination = { [core] _ in core.cancel(subscriber) }
        return EventStream(stream: stream, token: token, dropped: dropped)
    }
}
