import Commands
import EventBus
import Foundation

/// Turns store changes into ``ModelDidChange`` events, holding them while a command's change
/// is being saved so that subscribers only hear about changes that are on disk.
final class ChangePublisher<Model: Sendable>: Sendable {
    private struct State {
        var holds = 0
        var pending: [ModelChange<Model>] = []
    }

    private let bus: Bus
    private let state = Locked(State())

    init(bus: Bus) { self.bus = bus }

    func received(_ change: ModelChange<Model>) {
        let publishNow = state.withLock { state -> Bool in
            if state.holds > 0 {
                state.pending.append(change)
                return false
            }
            return true
        }
        if publishNow { bus.trigger(ModelDidChange(change)) }
    }

    func hold() { state.withLock { $0.holds += 1 } }

    /// Ends a hold; the last one out publishes everything held, in order. Any save made by
    /// then wrote the newest model, so every held change is on disk.
    func release() {
        let ready = state.withLock { state -> [ModelChange<Model>] in
            state.holds -= 1
            guard state.holds == 0 else { return [] }
            defer { state.pending.removeAll() }
            return state.pending
        }
        for change in ready { bus.trigger(ModelDidChange(change)) }
    }
}
