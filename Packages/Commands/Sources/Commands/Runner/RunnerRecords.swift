import Foundation
import _KitSupport

/// A runner's undo history, journal, and the group of changes waiting for their save.
///
/// They change together with the model, so they share the store's lock: committing a change
/// and recording it is one critical section, and a reader never sees a model without its undo
/// step or journal entry.
@usableFromInline
final class RunnerRecords<Model: Sendable>: @unchecked Sendable {
    // @unchecked: `state` is only read or written with `lock` (the store's lock) held.

    @usableFromInline
    struct State {
        @usableFromInline var history: UndoHistory<Model>
        @usableFromInline var journal: JournalBuffer
        /// The changes committed to the head but not yet saved; nil when none wait. Only the
        /// writer reads or writes it.
        var group: CommitGroup<Model>?
    }

    /// The store's lock.
    @usableFromInline let lock: FastLock
    /// Behind a pointer: no dynamic exclusivity check per access; the lock is the check.
    @usableFromInline let state: UnsafeMutablePointer<State>

    init(lock: FastLock, undoLimit: Int, journalLimit: Int) {
        self.lock = lock
        state = .allocate(capacity: 1)
        state.initialize(
            to: State(history: UndoHistory(limit: undoLimit), journal: JournalBuffer(capacity: journalLimit)))
    }

    deinit {
        state.pointee.history.past.deallocate()
        state.pointee.journal.ring.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with the lock held. Never call it with the lock already held.
    @inlinable
    func withLock<T, E: Error>(_ body: (inout State) throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in try body(&state.pointee) }
    }
}
