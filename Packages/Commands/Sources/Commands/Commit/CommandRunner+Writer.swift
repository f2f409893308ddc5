import Dispatch
import _KitSupport

/// The write queue as the runner drives it: jobs run one at a time on the writer, and at the
/// end of each batch (when the queue is momentarily empty) the changes waiting for their save
/// are saved in one write and settled (see `CommandRunner+Commit.swift`).
extension CommandRunner {
    /// Queues `job`; runs it (and everything queued behind it) right away when the queue is idle.
    func submit(_ name: @autoclosure () -> String, _ job: @escaping () -> Void) {
        ReadScope.checkNotReading(name())
        let becameWriter = store.lock.withLock {
            store.pending.append(job)
            if store.isWriting { return false }
            store.isWriting = true
            store.writer = CurrentThread.id
            return true
        }
        if becameWriter { drain() }
    }

    /// Runs `work` as a job and returns once it has settled, without blocking a thread: at
    /// once, on this thread, when no job is running; otherwise after the jobs queued before it.
    ///
    /// `name` is only worked out for a debug build's trap: a command's default name costs a
    /// runtime type-name lookup, which every `await run` would otherwise pay.
    func perform<T: Sendable>(
        _ name: @autoclosure () -> String, _ work: @escaping (_ finish: @escaping Settled<T>) -> Void
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit(name()) { work { continuation.resume(with: $0) } }
        }
    }

    /// Runs `work` as the next job and returns its result, blocking until it has settled: the
    /// path of ``execute(_:)`` when it cannot take the fast path.
    ///
    /// - Throws: ``CommandError/reentrantExecute(command:)`` when called on the writer thread
    ///   (from an observer or a command), where waiting would deadlock and running would nest.
    @usableFromInline
    func performBlocking<T: Sendable>(
        _ name: String, _ work: @escaping (_ finish: @escaping Settled<T>) -> Void
    ) throws -> T {
        let outcome = Outcome<T>()
        let turn = store.lock.withLock { () -> BlockingTurn in
            guard store.isWriting else {
                store.isWriting = true
                store.writer = CurrentThread.id
                return .runNow
            }
            if CurrentThread.isSame(store.writer) { return .reentrant }
            let done = DispatchSemaphore(value: 0)
            store.pending.append {
                work { result in
                    outcome.set(result)
                    done.signal()
                }
            }
            return .queued(done)
        }
        switch turn {
        case .runNow:
            work { outcome.set($0) }
            drain()
        case .reentrant:
            throw CommandError.reentrantExecute(command: name)
        case .queued(let done):
            done.wait()
        }
        return try outcome.take(name)
    }

    /// Runs queued jobs until the queue is empty and nothing waits for a save, then gives up
    /// the writer role. An async save step takes the role over while it runs and drains on
    /// when it is done.
    @usableFromInline
    func drain() {
        while true {
            let next = store.lock.withLock { () -> NextStep in
                if let job = store.takeJob() { return .job(job) }
                if records.state.pointee.group != nil { return .save }
                _ = store.releaseWriterIfIdle()
                return .done
            }
            switch next {
            case .job(let job): job()
            case .save: guard saveGroup() else { return }
            case .done: return
            }
        }
    }
}

/// How a job hands its outcome on once it has settled (saved, rolled back or failed).
@usableFromInline
typealias Settled<T> = @Sendable (Swift.Result<T, any Error>) -> Void

/// What the writer does next.
private enum NextStep {
    case job(() -> Void)
    /// The batch is over: save the changes waiting for it.
    case save
    case done
}

/// What ``CommandRunner/performBlocking(_:_:)`` found under the lock.
private enum BlockingTurn {
    /// No job was running: the caller became the writer.
    case runNow
    /// The caller is the writer (an observer or a command): waiting would deadlock.
    case reentrant
    /// The job is queued; the caller waits on the semaphore.
    case queued(DispatchSemaphore)
}

/// Carries a blocking caller's outcome from the writer back. The writer sets it before it
/// signals the caller's semaphore, or on the caller's own thread.
private final class Outcome<T>: @unchecked Sendable {
    private var result: Swift.Result<T, any Error>?

    func set(_ result: Swift.Result<T, any Error>) {
        self.result = result
    }

    func take(_ name: String) throws -> T {
        guard let result else {
            preconditionFailure("Commands: \(name) was not settled before its writer gave up the queue.")
        }
        return try result.get()
    }
}
