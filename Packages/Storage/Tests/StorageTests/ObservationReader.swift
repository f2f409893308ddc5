import Foundation
import Observation

/// Counts Observation's change signals for one reading, re-arming after each as SwiftUI does.
final class ObservationReader: @unchecked Sendable {
    // @unchecked: `changes` is only touched while holding `lock`.
    private let lock = NSLock()
    private var changes = 0
    private let read: @Sendable () -> Void

    init(_ read: @escaping @Sendable () -> Void) {
        self.read = read
        track()
    }

    /// How many change signals arrived.
    var count: Int { lock.withLock { changes } }

    private func track() {
        withObservationTracking(read) { [self] in
            lock.withLock { changes += 1 }
            track()
        }
    }
}
