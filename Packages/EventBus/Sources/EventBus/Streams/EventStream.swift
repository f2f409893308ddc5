/// How many undelivered events an ``EventStream`` keeps for a consumer that lags behind.
public enum EventBuffering: Sendable, Hashable {
    /// Keep every event; memory grows while the consumer lags.
    case unbounded
    /// Keep the newest `limit` events, dropping the oldest.
    case newest(Int)
    /// Keep the oldest `limit` events, dropping new ones.
    case oldest(Int)
}

/// The events of one type as an `AsyncSequence`, from ``Bus/events(of:from:replayLast:buffering:file:line:)``.
///
/// The subscription starts when the stream is made, so nothing triggered between making it and
/// iterating it is lost (within the buffering policy). It ends when the iteration ends (a
/// `break`, the task's cancellation) or the stream and its iterator are released, or the bus
/// closes. Events the buffering policy dropped are counted in ``droppedCount`` — never dropped
/// silently. One consumer per stream: a second task iterating it at the same time finds it
/// ended.
///
/// An event that is already waiting is handed over without suspending the consumer.
public struct EventStream<Element: Event>: AsyncSequence, Sendable {
    @usableFromInline let buffer: StreamBuffer<Element>
    @usableFromInline let token: WatchToken

    @usableFromInline
    init(buffer: StreamBuffer<Element>, token: WatchToken) {
        self.buffer = buffer
        self.token = token
    }

    /// The number of events the buffering policy discarded so far.
    public var droppedCount: Int { buffer.droppedCount }

    /// Ends the subscription; iteration then finishes, discarding what was buffered.
    public func cancel() { token.cancel() }

    /// Makes the stream's iterator.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        Iterator(buffer: buffer, token: token)
    }

    /// Iterates an ``EventStream``.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let buffer: StreamBuffer<Element>
        /// Held so that releasing the iterator (after a `break`) ends the subscription.
        @usableFromInline let token: WatchToken

        @usableFromInline
        init(buffer: StreamBuffer<Element>, token: WatchToken) {
            self.buffer = buffer
            self.token = token
        }

        /// The next event, or nil once the subscription has ended (cancelled, the bus closed,
        /// or the consuming task cancelled, which also ends the subscription).
        @inlinable
        public mutating func next() async -> Element? {
            if Task.isCancelled {
                token.cancel()
                return nil
            }
            if let polled = buffer.poll() { return polled }
            return await buffer.wait(onCancel: { [token] in token.cancel() })
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
    @inlinable
    public func events<E: Event>(
        of type: E.Type, from sender: AnyObject? = nil, replayLast: Bool = true, buffering: EventBuffering = .unbounded,
        file: StaticString = #fileID, line: UInt = #line
    ) -> EventStream<E> {
        let buffer = StreamBuffer<E>(buffering: buffering)
        let token = register(
            E.self, topic: .type(ObjectIdentifier(E.self)), sender: sender, replayLast: replayLast, isQueued: true,
            file: file, line: line, onCancel: { buffer.finish() },
            call: { _, pointer in buffer.yield(pointer.assumingMemoryBound(to: E.self).pointee) })
        return EventStream(buffer: buffer, token: token)
    }
}
