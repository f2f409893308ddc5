import Foundation
import _KitSupport

/// The writer role. Every change happens in a job; jobs run one at a time, in the order they
/// were submitted, on whichever thread found the queue idle (the "writer"). A job submitted
/// while another runs, including from a change observer on the writer thread, waits its turn.
/// The queue itself is drained by the store's runner (`CommandRunner+Writer.swift`), which
/// also saves the changes of a batch before it gives the role up.
extension ModelStore {
    /// Becomes the writer when no job is running; false when one is (take the slow path then).
    ///
    /// Every `execute` on the fast path comes here, so the thread is read with `pthread_self()`
    /// inlined into the caller: `CurrentThread.id` is a call into the module, not inlinable.
    @inlinable
    @inline(__always)
    func beginWriting() -> Bool {
        lock.withLock {
            if isWriting { return false }
            isWriting = true
            writer = pthread_self()
            return true
        }
    }

    /// With the lock held, on the writer: gives up the writer role when no job is queued.
    /// Returns false when jobs are queued; the writer must drain them.
    @inlinable
    @inline(__always)
    func releaseWriterIfIdle() -> Bool {
        guard pendingHead >= pending.count else { return false }
        if !pending.isEmpty {
            pending.removeAll(keepingCapacity: true)
            pendingHead = 0
        }
        isWriting = false
        writer = nil
        return true
    }

    /// With the lock held, on the writer: the next queued job, if any.
    @usableFromInline
    func takeJob() -> (() -> Void)? {
        guard pendingHead < pending.count else { return nil }
        let job = pending[pendingHead]
        pendingHead += 1
        if pendingHead >= 64 && pendingHead * 2 >= pending.count {
            pending.removeFirst(pendingHead)
            pendingHead = 0
        }
        return job
    }

    /// On the writer, for a job that changed nothing: runs `record` under the lock, then gives
    /// up the writer role. Returns false when jobs are queued: the caller must drain them.
    @inlinable
    @inline(__always)
    func endWriting(recording record: () -> Void) -> Bool {
        lock.withLock {
            record()
            return releaseWriterIfIdle()
        }
    }
}
