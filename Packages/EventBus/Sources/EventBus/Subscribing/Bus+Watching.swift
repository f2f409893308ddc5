extension Bus {
    /// Calls `handler` with every event of a type, optionally only those from one sender.
    ///
    /// - Parameters:
    ///   - type: The event type to watch.
    ///   - sender: If given, only events triggered `from:` this very object (by identity) are
    ///     delivered. It is held weakly: when it goes away the subscription goes quiet.
    ///   - context: Where the handler runs; synchronously on the triggering thread by default.
    ///   - replayLast: Also deliver the last event of this type triggered on this bus (from
    ///     `sender`, if given) right away, if there was one.
    ///   - file: The file making the subscription, for leak reports (``SubscriptionInfo``).
    ///   - line: The line making the subscription, for leak reports.
    ///   - handler: Called with each event.
    /// - Returns: The subscription's token; the subscription ends when it is cancelled or released.
    @inlinable
    public func watch<E: Event>(
        _ type: E.Type, from sender: AnyObject? = nil, on context: DeliveryContext = .synchronous,
        replayLast: Bool = false, file: StaticString = #fileID, line: UInt = #line,
        _ handler: @escaping @Sendable (E) -> Void
    ) -> WatchToken {
        guard context == .synchronous else {
            return watchQueued(
                E.self, from: sender, on: context, replayLast: replayLast, file: file, line: line, handler)
        }
        // Inlined so that the erased call below is specialised for E: delivery reads the value
        // through the pointer without going through E's metadata.
        let subscriber: Subscriber
        // A spare comes with a second reference, which its bucket takes over.
        var bringsReference = false
        if sender == nil, let spare = spareSubscriber(for: ObjectIdentifier(E.self)) {
            subscriber = TypedSubscriber<E>.reuse(spare, file: file, line: line, handler: handler)
            bringsReference = true
        } else {
            subscriber = TypedSubscriber<E>(
                sender: sender, file: file, line: line, handler: handler,
                call: { subscriber, pointer in
                    unsafeDowncast(subscriber, to: TypedSubscriber<E>.self)
                        .handler?(pointer.assumingMemoryBound(to: E.self).pointee)
                })
        }
        let (token, replay) = watchSynchronously(
            consume subscriber, from: sender, replayLast: replayLast, bringsReference: bringsReference)
        if let replay, let event = replay.event as? E, !token.isCancelled { handler(event) }
        return token
    }

    /// This thread's spare subscriber, if it was made for events of type `key` (see `WatchToken`).
    @usableFromInline
    func spareSubscriber(for key: ObjectIdentifier) -> Subscriber? {
        DeliveryThread.takeSpare(for: key, threadKey: core.threadKey)
    }

    /// Registers a synchronous subscription to a type; returns its token and the event to
    /// replay, if one was asked for and exists. `bringsReference`: see `BusCore.register`.
    @usableFromInline
    func watchSynchronously(
        _ subscriber: consuming Subscriber, from sender: AnyObject?, replayLast: Bool, bringsReference: Bool
    ) -> (WatchToken, Replay?) {
        let replay = core.register(
            subscriber, sender: sender, replayLast: replayLast, bringsReference: bringsReference)
        return (WatchToken(subscriber: subscriber, core: core), replay)
    }

    /// Registers a typed subscription delivered on the main actor or its own task.
    @usableFromInline
    func watchQueued<E: Event>(
        _ type: E.Type, from sender: AnyObject?, on context: DeliveryContext, replayLast: Bool, file: StaticString,
        line: UInt, _ handler: @escaping @Sendable (E) -> Void
    ) -> WatchToken {
        subscribe(
            E.self, topic: .type(ObjectIdentifier(E.self)), sender: sender, context: context, replayLast: replayLast,
            file: file, line: line, handler)
    }

    /// Calls `handler` with every event triggered under `name`, optionally only from one sender.
    ///
    /// - Parameters:
    ///   - name: The event name to watch, such as `"network:on"`.
    ///   - sender: If given, only events triggered `from:` this very object are delivered; held weakly.
    ///   - context: Where the handler runs; synchronously on the triggering thread by default.
    ///   - replayLast: Also deliver the last event of this name right away, if there was one.
    ///   - file: The file making the subscription, for leak reports (``SubscriptionInfo``).
    ///   - line: The line making the subscription, for leak reports.
    ///   - handler: Called with each event.
    /// - Returns: The subscription's token.
    public func watch(
        _ name: String, from sender: AnyObject? = nil, on context: DeliveryContext = .synchronous,
        replayLast: Bool = false, file: StaticString = #fileID, line: UInt = #line,
        _ handler: @escaping @Sendable (NamedEvent) -> Void
    ) -> WatchToken {
        subscribe(
            NamedEvent.self, topic: .name(name), sender: sender, context: context, replayLast: replayLast,
            file: file, line: line, handler)
    }

    /// Calls `handler` with every event, typed or named, triggered from `sender`.
    ///
    /// - Parameters:
    ///   - sender: The object whose events to watch, matched by identity and held weakly.
    ///   - context: Where the handler runs; synchronously on the triggering thread by default.
    ///   - file: The file making the subscription, for leak reports (``SubscriptionInfo``).
    ///   - line: The line making the subscription, for leak reports.
    ///   - handler: Called with each event.
    /// - Returns: The subscription's token.
    public func watch(
        from sender: AnyObject, on context: DeliveryContext = .synchronous, file: StaticString = #fileID,
        line: UInt = #line, _ handler: @escaping @Sendable (any Event) -> Void
    ) -> WatchToken {
        subscribe(
            (any Event).self, topic: .anyEvent, sender: sender, context: context, replayLast: false,
            receivesAnyEvent: true, file: file, line: line, handler)
    }

    /// Runs an async, possibly throwing `handler` for every event of a type, one event after
    /// another in trigger order, on a task of the subscription's own. A slow handler delays only
    /// itself; an error it throws is triggered on this bus as ``HandlerFailed``.
    ///
    /// - Parameters:
    ///   - type: The event type to watch.
    ///   - sender: If given, only events triggered `from:` this very object; held weakly.
    ///   - replayLast: Also deliver the last event of this type, if there was one.
    ///   - file: The file making the subscription, for leak reports (``SubscriptionInfo``).
    ///   - line: The line making the subscription, for leak reports.
    ///   - handler: Called with each event.
    /// - Returns: The subscription's token.
    public func watchAsync<E: Event>(
        _ type: E.Type, from sender: AnyObject? = nil, replayLast: Bool = false, file: StaticString = #fileID,
        line: UInt = #line, _ handler: @escaping @Sendable (E) async throws -> Void
    ) -> WatchToken {
        let (stream, continuation) = makeStream(of: E.self, buffering: .unbounded)
        let location = "\(file):\(line)"
        // Cancelling the subscription cancels this task, which then starts no further call.
        let task = Task { [weak self] in
            for await event in stream {
                if Task.isCancelled { break }
                do {
                    try await handler(event)
                } catch {
                    self?.trigger(
                        HandlerFailed(error: error, eventType: String(reflecting: E.self), location: location))
                }
            }
        }
        return register(
            E.self, topic: .type(ObjectIdentifier(E.self)), sender: sender, replayLast: replayLast, isQueued: true,
            file: file, line: line,
            onCancel: {
                task.cancel()
                continuation.finish()
            }, call: { continuation.yield($1.assumingMemoryBound(to: E.self).pointee) })
    }

    /// Subscribes a synchronous handler in the given context.
    private func subscribe<Value: Sendable>(
        _ type: Value.Type, topic: Topic, sender: AnyObject?, context: DeliveryContext, replayLast: Bool,
        receivesAnyEvent: Bool = false, file: StaticString, line: UInt,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> WatchToken {
        switch context {
        case .synchronous:
            return register(
                Value.self, topic: topic, sender: sender, replayLast: replayLast, receivesAnyEvent: receivesAnyEvent,
                file: file, line: line, onCancel: nil,
                call: { handler($1.assumingMemoryBound(to: Value.self).pointee) })
        case .mainActor, .asynchronous:
            let (stream, continuation) = makeStream(of: Value.self, buffering: .unbounded)
            // Cancelling the subscription cancels this task, which then starts no further call.
            let task: Task<Void, Never>
            if context == .mainActor {
                task = Task { @MainActor in
                    for await value in stream {
                        if Task.isCancelled { break }
                        handler(value)
                    }
                }
            } else {
                task = Task {
                    for await value in stream {
                        if Task.isCancelled { break }
                        handler(value)
                    }
                }
            }
            return register(
                Value.self, topic: topic, sender: sender, replayLast: replayLast, receivesAnyEvent: receivesAnyEvent,
                isQueued: true, file: file, line: line,
                onCancel: {
                    task.cancel()
                    continuation.finish()
                },
                call: { continuation.yield($1.assumingMemoryBound(to: Value.self).pointee) })
        }
    }

    /// Stores a subscriber and makes its token, replaying the last event to a synchronous one.
    @usableFromInline
    func register<Value>(
        _ type: Value.Type, topic: Topic, sender: AnyObject?, replayLast: Bool, receivesAnyEvent: Bool = false,
        isQueued: Bool = false, file: StaticString, line: UInt,
        onCancel: (@Sendable () -> Void)?, call: @escaping @Sendable (Subscriber, UnsafeRawPointer) -> Void
    ) -> WatchToken {
        let subscriber = Subscriber(
            topic: topic, sender: sender, eventType: Value.self, receivesAnyEvent: receivesAnyEvent,
            isQueued: isQueued, file: file, line: line, onCancel: onCancel, call: call)
        let replay = core.register(subscriber, sender: sender, replayLast: replayLast, bringsReference: false)
        if let replay, !subscriber.isCancelled {
            subscriber.invoke(with: replay.event)
        }
        return WatchToken(subscriber: subscriber, core: core)
    }
}

/// An `AsyncStream` and its continuation, made without `makeStream` (macOS 14+).
func makeStream<Value>(
    of type: Value.Type, buffering policy: AsyncStream<Value>.Continuation.BufferingPolicy
) -> (AsyncStream<Value>, AsyncStream<Value>.Continuation) {
    var continuation: AsyncStream<Value>.Continuation?
    let stream = AsyncStream(Value.self, bufferingPolicy: policy) { continuation = $0 }
    guard let continuation else { preconditionFailure("AsyncStream did not call its build closure") }
    return (stream, continuation)
}
