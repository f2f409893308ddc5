#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What one thread is delivering right now: a stack of frames, one per bus whose subscribers
/// this thread is calling. A trigger on a bus that already has a frame here is re-entrant, so
/// it is queued on that frame and delivered when the current event has reached every
/// subscriber (breadth-first); a trigger on any other bus is delivered at once.
///
/// The state lives in thread-local storage, is only touched by its own thread, and is reached
/// through a pointer: no reference counting and no exclusivity checks on the hot path.
struct DeliveryThread {
    private var depth = 0
    private var buses: [ObjectIdentifier?] = []
    private var pending: [[() -> Void]] = []
    /// A cancelled synchronous subscriber that nothing else holds and no other thread was ever
    /// given (`Subscriber.wasNeverHandedOut`), kept by the thread that released
    /// its token for the next `watch` of the same event type on this thread (``spareKey``): a
    /// watch-and-cancel loop then allocates one object (the token) instead of two. It holds two
    /// strong references to it: this one and its old bucket's, which its next bucket takes over
    /// (`BusCore.register`'s `bringsReference`) and which is released if it is dropped instead.
    private var spare: Subscriber?
    private var spareKey: ObjectIdentifier?

    /// This thread's delivery state, created on first use and freed when the thread ends.
    /// `threadKey` is ``deliveryThreadKey``, passed in by a core that copied it: reading the
    /// global itself costs a `swift_once` check each time.
    @inline(__always)
    static func current(_ threadKey: pthread_key_t) -> UnsafeMutablePointer<DeliveryThread> {
        if let pointer = pthread_getspecific(threadKey) {
            return pointer.assumingMemoryBound(to: DeliveryThread.self)
        }
        return makeState(threadKey)
    }

    private static func makeState(_ threadKey: pthread_key_t) -> UnsafeMutablePointer<DeliveryThread> {
        let state = UnsafeMutablePointer<DeliveryThread>.allocate(capacity: 1)
        state.initialize(to: DeliveryThread())
        pthread_setspecific(threadKey, state)
        return state
    }

    /// Takes this thread's spare subscriber if it was made for events of type `key`, with both
    /// of the spare's references: the caller registers it with `bringsReference`.
    @inline(__always)
    static func takeSpare(for key: ObjectIdentifier, threadKey: pthread_key_t) -> Subscriber? {
        let state = current(threadKey)
        guard state.pointee.spareKey == key else { return nil }
        state.pointee.spareKey = nil
        return state.pointee.spare.take()
    }

    /// Keeps `subscriber` (of events of type `key`; cancelled, its handler dropped, held by
    /// nothing else) as this thread's spare, with both of its references (the caller's, and the
    /// bucket's it still carries), releasing the previous one.
    @inline(__always)
    static func keepSpare(_ subscriber: consuming Subscriber, for key: ObjectIdentifier, threadKey: pthread_key_t) {
        let state = current(threadKey)
        state.pointee.dropSpare()
        state.pointee.spareKey = key
        state.pointee.spare = consume subscriber
    }

    /// Releases the spare, if there is one, with its second reference.
    @inline(__always)
    private mutating func dropSpare() {
        guard let spare = spare.take() else { return }
        assert(retainCount(Unmanaged.passUnretained(spare).toOpaque()) >= 2, "a spare carries two references")
        Unmanaged.passUnretained(spare).release()
        spareKey = nil
    }

    /// Frees the delivery state of a thread that ends (the key's destructor).
    fileprivate static func release(_ state: UnsafeMutablePointer<DeliveryThread>) {
        state.pointee.dropSpare()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The frame of `bus` if this thread is delivering one of its events.
    @inline(__always)
    func frame(for bus: ObjectIdentifier) -> Int? {
        var index = 0
        while index < depth {
            if buses[index] == bus { return index }
            index += 1
        }
        return nil
    }

    /// Queues a delivery behind the current one of `frame`.
    mutating func enqueue(_ delivery: @escaping () -> Void, in frame: Int) {
        pending[frame].append(delivery)
    }

    /// Marks this thread as delivering for `bus`; frames are reused, so this rarely allocates.
    @inline(__always)
    mutating func push(_ bus: ObjectIdentifier) -> Int {
        if depth == buses.count {
            buses.append(nil)
            pending.append([])
        }
        buses[depth] = bus
        depth += 1
        return depth - 1
    }

    /// Runs the deliveries queued on `frame`, including those they queue in turn, then ends the
    /// frame. Each delivery runs with no access to the state held, since it may trigger again.
    @inline(__always)
    static func drainAndPop(_ state: UnsafeMutablePointer<DeliveryThread>, frame: Int) {
        if !state.pointee.pending[frame].isEmpty {
            var index = 0
            while index < state.pointee.pending[frame].count {
                let delivery = state.pointee.pending[frame][index]
                index += 1
                delivery()
            }
            state.pointee.pending[frame].removeAll(keepingCapacity: true)
        }
        state.pointee.depth -= 1
        state.pointee.buses[frame] = nil
    }
}

#if canImport(Darwin)
    private typealias KeyDestructor = @convention(c) (UnsafeMutableRawPointer) -> Void
    private let releaseThread: KeyDestructor = { pointer in
        DeliveryThread.release(pointer.assumingMemoryBound(to: DeliveryThread.self))
    }
#else
    private typealias KeyDestructor = @convention(c) (UnsafeMutableRawPointer?) -> Void
    private let releaseThread: KeyDestructor = { pointer in
        guard let state = pointer?.assumingMemoryBound(to: DeliveryThread.self) else { return }
        DeliveryThread.release(state)
    }
#endif

/// The key of every thread's ``DeliveryThread`` state. Each `BusCore` copies it when made.
let deliveryThreadKey: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, releaseThread)
    precondition(result == 0, "EventBus: pthread_key_create failed with \(result)")
    return key
}()
