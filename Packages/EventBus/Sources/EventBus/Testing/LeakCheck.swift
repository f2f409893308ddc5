/// A live subscription, described for leak reports.
public struct SubscriptionInfo: Sendable, Hashable, CustomStringConvertible {
    /// What is watched: an event type, a quoted event name, or "every event".
    public var topic: String
    /// The type of the sender it filters on, if any.
    public var senderType: String?
    /// The file that called `watch`.
    public var file: String
    /// The line that called `watch`.
    public var line: Int
    /// Whether the sender it filters on (if any) is still alive.
    public var isSenderAlive: Bool

    /// Such as `NetworkActivity from Model, watched at App/Screen.swift:12`.
    public var description: String {
        let from = senderType.map { " from \($0)" } ?? ""
        return "\(topic)\(from), watched at \(file):\(line)"
    }
}

/// Finds the subscriptions made on a bus after a point that are still alive: make one before
/// exercising an object, release the object, then expect ``leaks`` to be empty.
///
/// ```swift
/// let check = bus.leakCheck()
/// do { let screen = Screen(bus: bus); screen.appear() }
/// #expect(check.leaks.isEmpty, "\(check.leaks)")
/// ```
public struct LeakCheck: Sendable {
    let core: BusCore
    let firstID: UInt64

    /// Live subscriptions made since the check began, in registration order.
    public var leaks: [SubscriptionInfo] { core.liveSubscribers(since: firstID).map(\.info) }
}

extension Bus {
    /// Every live subscription, in registration order.
    public var liveSubscriptions: [SubscriptionInfo] { core.liveSubscribers().map(\.info) }

    /// The number of live subscriptions.
    public var subscriptionCount: Int { core.liveSubscribers().count }

    /// Starts a leak check: subscriptions made from now on that are still alive when you read
    /// ``LeakCheck/leaks`` are reported, with where they were made.
    public func leakCheck() -> LeakCheck {
        LeakCheck(core: core, firstID: core.lock.withLock { core.nextID })
    }
}
