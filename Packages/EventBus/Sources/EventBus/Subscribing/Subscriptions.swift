import _KitSupport

/// A bag of subscriptions owned by one observer, cancelled together: by ``cancelAll()``, or
/// when the bag is released (typically when its owner is).
///
/// ```swift
/// final class NetworkIndicator {
///     private var bag = Subscriptions()
///     init(bus: Bus) {
///         bus.watch(NetworkActivity.self) { print($0.active) }.store(in: &bag)
///     }
/// }
/// ```
///
/// It is a reference type: copies share the same subscriptions.
public final class Subscriptions: Sendable {
    private let tokens = Locked<[WatchToken]>([])

    /// Makes an empty bag.
    public init() {}

    deinit {
        cancelAll()
    }

    /// Adds a token; it is cancelled with the others.
    public func insert(_ token: WatchToken) {
        tokens.withLock { $0.append(token) }
    }

    /// The number of tokens held, cancelled or not.
    public var count: Int { tokens.withLock { $0.count } }

    /// Whether the bag holds no token.
    public var isEmpty: Bool { tokens.withLock { $0.isEmpty } }

    /// Cancels every subscription in the bag and empties it.
    public func cancelAll() {
        let taken = tokens.withLock { tokens in
            defer { tokens = [] }
            return tokens
        }
        for token in taken { token.cancel() }
    }
}
