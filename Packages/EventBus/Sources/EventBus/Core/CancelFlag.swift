import Synchronization
import _KitSupport

/// A flag raised once, when a subscription is cancelled, and read before every call of its
/// handler. Reading it is the only per-subscriber synchronisation on the delivery path, so it
/// is an atomic load where the platform has `Atomic` (Linux; Apple platforms from macOS 15 /
/// iOS 18) and a lock otherwise.
class CancelFlag: @unchecked Sendable {
    /// A flag of the fastest kind this platform supports.
    static func make() -> CancelFlag {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            return AtomicCancelFlag()
        } else {
            return LockedCancelFlag()
        }
    }

    /// Whether the subscription was cancelled.
    var isRaised: Bool { preconditionFailure("CancelFlag is abstract") }

    /// Raises the flag; true for the one call that raised it, false if it was already raised.
    func raise() -> Bool { preconditionFailure("CancelFlag is abstract") }

    /// Lowers the flag again, for a subscriber being reused (nothing else holds it).
    func lower() { preconditionFailure("CancelFlag is abstract") }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private final class AtomicCancelFlag: CancelFlag, @unchecked Sendable {
    private let raised = Atomic<Bool>(false)

    override var isRaised: Bool { raised.load(ordering: .acquiring) }

    override func raise() -> Bool {
        !raised.exchange(true, ordering: .acquiringAndReleasing)
    }

    override func lower() {
        raised.store(false, ordering: .releasing)
    }
}

private final class LockedCancelFlag: CancelFlag, @unchecked Sendable {
    private let lock = FastLock()
    private var raised = false

    override var isRaised: Bool { lock.withLock { raised } }

    override func raise() -> Bool {
        lock.withLock {
            defer { raised = true }
            return !raised
        }
    }

    override func lower() {
        lock.withLock { raised = false }
    }
}
