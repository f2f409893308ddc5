import Foundation

/// Identifies the calling thread, to tell re-entrant calls from calls on other threads.
@usableFromInline
enum CurrentThread {
    @usableFromInline static var id: pthread_t { pthread_self() }

    @usableFromInline static func isSame(_ other: pthread_t?) -> Bool {
        guard let other else { return false }
        return pthread_equal(other, pthread_self()) != 0
    }
}
