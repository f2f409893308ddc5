/// A live subscription. Cancel it, or let it go: a token cancels its subscription when the
/// last reference to it is released.
///
/// Keep tokens in a ``Subscriptions`` bag owned by the observer, so that the observer's
/// subscriptions end with it: no `unwatch` in `deinit`, no leaked observers.
public final class WatchToken: Sendable, Hashable {
    let subscriber: Subscriber
    let core: BusCore

    init(subscriber: Subscriber, core: BusCore) {
        self.subscriber = subscriber
        self.core = core
    }

    deinit {
        // Most tokens are cancelled before they are released: then there is nothing to do, and
        // not calling into the core saves a retain and a release of both the core and the
        // subscriber (a fifth of a watch-and-cancel).
        if !subscriber.isCancelled { core.cancel(subscriber) }
    }

    /// Ends the subscription: once this returns, its handler is not called again. Cancelling
    /// twice, or after the bus is gone, does nothing.
    public func cancel() {
        core.cancel(subscriber)
    }

    /// Whether the subscription was cancelled (by the token, an `unwatch`, or the bus closing).
    public var isCancelled: Bool { subscriber.isCancelled }

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
