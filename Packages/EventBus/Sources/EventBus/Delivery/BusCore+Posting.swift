/// The subscribers an event goes to, taken under the lock at trigger time.
///
/// The common case (a typed event without a sender) is one array; otherwise several arrays,
/// each in registration order, are merged by id while delivering so that the subscribers are
/// still called in the order they subscribed, whichever way they matched.
struct Snapshot {
    var primary: ContiguousArray<Subscriber> = []
    var lists: [ContiguousArray<Subscriber>] = []

    /// Calls every matching, still-live subscriber in registration order. `pointer` points to
    /// the event's value (of the type every typed subscriber here expects); `box` makes the same
    /// event as an existential, for subscribers of every event from a sender.
    func deliver(_ pointer: UnsafeRawPointer, box: () -> any Event, from sender: AnyObject?) {
        if lists.isEmpty {
            // The snapshot keeps every subscriber alive, so each is used without retaining it
            // (retain/release per subscriber was most of the cost of a fan-out).
            primary.withUnsafeBufferPointer { subscribers in
                for index in subscribers.indices {
                    Unmanaged.passUnretained(subscribers[index])._withUnsafeGuaranteedRef { subscriber in
                        if !subscriber.isCancelled { subscriber.invoke(pointer) }
                    }
                }
            }
        } else {
            deliverMerged(pointer, box: box, from: sender)
        }
    }

    /// Delivers an event known only as an existential (a queued delivery).
    func deliver(_ boxed: any Event, from sender: AnyObject?) {
        func open<E: Event>(_ event: E) {
            withUnsafePointer(to: event) { deliver(UnsafeRawPointer($0), box: { boxed }, from: sender) }
        }
        open(boxed)
    }

    private func deliverMerged(_ pointer: UnsafeRawPointer, box: () -> any Event, from sender: AnyObject?) {
        var cursors = [Int](repeating: 0, count: lists.count)
        var boxed: (any Event)?
        while true {
            var best = -1
            var bestID = UInt64.max
            for index in lists.indices where cursors[index] < lists[index].count {
                let id = lists[index][cursors[index]].id
                if id < bestID {
                    bestID = id
                    best = index
                }
            }
            guard best >= 0 else { return }
            let next = Unmanaged.passUnretained(lists[best][cursors[best]])
            cursors[best] += 1
            // Sender buckets were checked for identity when the snapshot was taken, and the
            // sender is held by the trigger until delivery ends, so only cancellation is left.
            next._withUnsafeGuaranteedRef { subscriber in
                guard !subscriber.isCancelled else { return }
                if subscriber.receivesAnyEvent {
                    let any = boxed ?? box()
                    boxed = any
                    withUnsafePointer(to: any) { subscriber.invoke(UnsafeRawPointer($0)) }
                } else {
                    subscriber.invoke(pointer)
                }
            }
        }
    }
}

extension BusCore {
    /// Delivers an event to this bus's subscribers and then to its parent's.
    ///
    /// The subscriber set is fixed now, under the lock. If this thread is already delivering an
    /// event of this bus (a handler triggered another), the delivery is queued behind the
    /// current one: breadth-first, so every subscriber sees events in the same order.
    ///
    /// - Parameters:
    ///   - pointer: The event's value, of the type identified by `type`.
    ///   - remember: Stores the event in a channel's last-event slot (specialised by the caller).
    ///   - box: Makes the event an existential, when one is needed (queueing, recording,
    ///     subscribers of every event from a sender).
    @usableFromInline
    func post(
        _ pointer: UnsafeRawPointer, type: ObjectIdentifier, from sender: AnyObject?, name: String?,
        remember: (inout LastEvent?) -> Void, box: () -> any Event
    ) {
        guard let snapshot = snapshot(type: type, from: sender, name: name, remember: remember, box: box) else {
            return
        }
        let key = ObjectIdentifier(self)
        let thread = DeliveryThread.current(threadKey)
        if let frame = thread.pointee.frame(for: key) {
            let boxed = box()
            thread.pointee.enqueue(
                { [self] in
                    snapshot.deliver(boxed, from: sender)
                    parent?.post(boxed, type: type, from: sender, name: name)
                }, in: frame)
            return
        }
        let frame = thread.pointee.push(key)
        snapshot.deliver(pointer, box: box, from: sender)
        if let parent {
            parent.post(pointer, type: type, from: sender, name: name, remember: remember, box: box)
        }
        DeliveryThread.drainAndPop(thread, frame: frame)
    }

    /// Posts an event known only as an existential.
    func post(_ boxed: any Event, type: ObjectIdentifier, from sender: AnyObject?, name: String?) {
        func open<E: Event>(_ event: E) {
            withUnsafePointer(to: event) {
                post(
                    UnsafeRawPointer($0), type: type, from: sender, name: name,
                    remember: { TypedLastEvent<E>.remember(event, in: &$0) }, box: { boxed })
            }
        }
        open(boxed)
    }

    /// Records the event for replay and recorders, and collects its subscribers; nil when the
    /// bus is closed.
    private func snapshot(
        type: ObjectIdentifier, from sender: AnyObject?, name: String?, remember: (inout LastEvent?) -> Void,
        box: () -> any Event
    ) -> Snapshot? {
        lock.lock()
        defer { lock.unlock() }
        if isClosed { return nil }
        let typeChannel = channel(forType: type)
        // The snapshot hands the type's subscribers to this thread: none stored until now may be
        // reused (see `cancel`).
        typeChannel.handOuts &+= 1
        typeChannel.remember(remember, from: sender)
        if !taps.isEmpty { record(box(), from: sender, name: name) }
        guard name != nil || sender != nil else {
            return Snapshot(primary: typeChannel.everyone.subscribers)
        }
        var snapshot = Snapshot()
        func add(_ list: ContiguousArray<Subscriber>?) {
            if let list, !list.isEmpty { snapshot.lists.append(list) }
        }
        func add(_ bucket: Bucket?) {
            if let bucket, let sender, bucket.isOwned(by: sender) { add(bucket.subscribers) }
        }
        let senderKey = sender.map(ObjectIdentifier.init)
        if let name {
            let nameChannel = channel(forName: name)
            nameChannel.remember(remember, from: sender)
            add(nameChannel.everyone.subscribers)
            if let senderKey { add(nameChannel.bySender[senderKey]) }
        }
        add(typeChannel.everyone.subscribers)
        if let senderKey {
            add(typeChannel.bySender[senderKey])
            add(senders[senderKey])
        }
        return snapshot
    }

    private func record(_ event: any Event, from sender: AnyObject?, name: String?) {
        let trigger = RecordedTrigger(
            event: event, name: name, senderID: sender.map(ObjectIdentifier.init),
            senderType: sender.map { String(describing: type(of: $0)) })
        for tap in taps.values { tap(trigger) }
    }
}
