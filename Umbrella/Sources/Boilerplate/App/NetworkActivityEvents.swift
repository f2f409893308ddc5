import EventBus
import Networking
import _KitSupport

/// iStructure's network activity events: `network:on` when the first request starts,
/// `network:off` when the last one ends, each with `["requests": count]`.
enum NetworkActivityEvents {
    /// The named event published when requests start being in flight.
    static let on = "network:on"
    /// The named event published when no request is in flight any more.
    static let off = "network:off"

    static func publish(activityOf client: HTTPClient, on bus: Bus) {
        let wasActive = Locked(false)
        client.onActivity = { [weak bus] count in
            guard let bus else { return }
            let changed = wasActive.withLock { active -> Bool in
                let now = count > 0
                defer { active = now }
                return now != active
            }
            guard changed else { return }
            bus.trigger(count > 0 ? on : off, data: ["requests": count])
        }
    }
}
