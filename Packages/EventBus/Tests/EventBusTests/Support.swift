import EventBus
import Foundation

struct Ping: Event, Equatable { var value: Int }
struct Pong: Event, Equatable { var value: Int }
struct Big: Event, Equatable { var a = 1, b = 2, c = 3, d = 4, e = "five" }

final class Sender: Sendable {}

/// A thread-safe log for handlers to write to.
final class Log<Entry: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Entry] = []

    func append(_ entry: Entry) { lock.withLock { storage.append(entry) } }
    var entries: [Entry] { lock.withLock { storage } }
    var count: Int { lock.withLock { storage.count } }
}

/// Waits (cooperatively, bounded) until `condition` holds; false if it never did.
func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
    for _ in 0..<2_000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
