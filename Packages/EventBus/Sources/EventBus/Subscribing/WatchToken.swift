/// A live subscription. Cancel it, or let it go: a token cancels its subscription when the
/// last reference to it is released.
///
/// Keep tokens in a ``Subscriptions`` bag owned by the observer, so that the observer's
/// subscriptions end with it: no `unwatch` in `deinit`, no leaked observers.
public final class WatchToken: Sendable, Hashable {
    /// The token's reference to its subscriber, held as a retained `Unmanaged` so that its
    /// release can hand that very reference on (see `deinit`) with no net change to the count.
    private let owned: Unmanaged<Subscriber>
    let core: BusCore

    /// The subscription's subscriber; the token keeps it alive.
    var subscriber: Subscriber { owned.takeUnretainedValue() }

    /// Makes the token of `subscriber`, taking over the caller's reference to it.
    init(subscriber: consuming Subscriber, core: BusCore) {
        self.owned = Unmanaged.passRetained(subscriber)
        self.core = core
    }

    deinit {
        // The subscriber is reached through `owned` only, borrowed: the deinit makes no strong
        // reference of its own, so the count read below is exact in any build.
        //
        // Most tokens are cancelled before they are released: then there is nothing to cancel,
        // and not calling into the core saves a retain and a release of both the core and the
        // subscriber.
        if !owned._withUnsafeGuaranteedRef({ $0.isCancelled }) { owned._withUnsafeGuaranteedRef { core.cancel($0) } }
        // This is where the subscriber would be freed. One that no other thread was ever given
        // (`wasNeverHandedOut`, decided by the cancel under the bus lock: no trigger of its type
        // and no leak report while it was stored) instead releases its handler, as freeing it
        // would, and waits for the next watch of its event type on this thread, which saves
        // allocating, initialising and freeing one object per watch. The mark is what makes the
        // rewrite race-free: no delivery ever read the handler. Its read is ordered after the
        // cancel by the acquiring `isCancelled` above (or is on the cancelling thread). The
        // count check only guards against a holder this reasoning missed; it orders nothing.
        //
        // A marked subscriber also carries its old bucket's reference (`Channel.cancelInEveryone`
        // kept it rather than releasing it), which the spare keeps for its next registration: so
        // "held by nothing else" is a strong count of two, the token's and the bucket's.
        guard owned._withUnsafeGuaranteedRef({ $0.wasNeverHandedOut }) else {
            owned.release()
            return
        }
        let count = retainCount(owned.toOpaque())
        if case .type(let key) = owned._withUnsafeGuaranteedRef({ $0.topic }), count == 2 {
            owned._withUnsafeGuaranteedRef { $0.dropHandler() }
            DeliveryThread.keepSpare(owned.takeRetainedValue(), for: key, threadKey: core.threadKey)
        } else {
            // Not reused after all: the bucket's reference goes as it would have at the cancel,
            // then the token's.
            assert(count >= 2, "a marked subscriber carries its token's and its bucket's references")
            owned.release()
            owned.release()
        }
    }

    /// Ends the subscription: once this returns, its handler is not called again. Cancelling
    /// twice, or after the bus is gone, does nothing.
    public func cancel() {
        // Borrowed: the token holds the subscriber, so the call needs no retain of its own.
        owned._withUnsafeGuaranteedRef { core.cancel($0) }
    }

    /// Whether the subscription was cancelled (by the token, an `unwatch`, or the bus closing).
    public var isCancelled: Bool { owned._withUnsafeGuaranteedRef { $0.isCancelled } }

    /// Hands the token to `subscriptions`, which cancels it when it is emptied or released.
    public func store(in subscriptions: inout Subscriptions) {
        subscriptions.insert(self)
    }

    /// Identity: two tokens are equal when they are the same token.
    public static func == (lhs: WatchToken, rhs: WatchToken) -> Bool { lhs === rhs }

    /// Hashes the token's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

/// `size_t swift_retainCount(HeapObject *)`: the strong references to an object, as the Swift
/// runtime counts them (the standard library's `_getRetainCount` calls it, through an `AnyObject`
/// argument the caller may retain for the call; the unretained pointer here adds nothing). A
/// plain load in the runtime: no atomic instruction, and no ordering. For one pointer argument and
/// a word result, Swift's calling convention and C's agree on every platform Swift supports.
///
/// Do not also call `_getRetainCount` in this module: the standard library declares the same
/// symbol with another signature, and two declarations of one symbol in one module conflict.
@_silgen_name("swift_retainCount")
func retainCount(_ object: UnsafeMutableRawPointer) -> UInt
