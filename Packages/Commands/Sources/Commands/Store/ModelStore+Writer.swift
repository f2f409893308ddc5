import Dispatch
import Foundation

/// The serial write queue. Every change happens in a job; jobs run one at a time, in the order
/// they were submitted, on whichever thread found the queue idle (the "writer"). A job submitted
/// while another runs, including from a change observer on the writer thread, waits its turn.
extension ModelStore {
    /// Becomes the writer when no job is running; false when one is (take the slow path then).
    @inlinable
    @inline(__always)
    func beginWriting() -> Bool {
        lock.withLock {
            if isWriting { return false }
            isWriting = true
            writer = CurrentThread.id
            return true
        }
    }

    /// With the lock held, on the writer: gives up the writer role when no job is queued.
    /// Returns false when jobs are queued; the writer must ``drain()`` them.
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

    /// On the writer, for a job that changed nothing: runs `record` under the lock, then gives
    /// up the writer role (running the queued jobs first, if any).
    @inlinable
    @inline(__always)
    func endWriting(recording record: () -> Void) {
        let released = lock.withLock {
            record()
            return releaseWriterIfIdle()
        }
        if !released { drain() }
    }

    /// On the writer, the last step of a job: replaces the model and runs `record` (the undo
    /// step, the journal entry) in the same critical section. When nobody observes and no job
    /// is queued, it also gives up the writer role and returns nil; otherwise it returns the
    /// observers, and the caller must ``notify(_:of:)`` them, then ``drain()``.
    @inlinable
    @inline(__always)
    func commitAndEnd(_ model: Model, recording record: () -> Void) -> [Observer]? {
        lock.withLock {
            current = model
            version &+= 1
            record()
            if observers.isEmpty && releaseWriterIfIdle() { return nil }
            return observers
        }
    }

    /// Runs `work` as the next job and returns its result, blocking until it has run: the slow
    /// path of ``CommandRunner/execute(_:)``, when ``beginWriting()`` found a job running.
    ///
    /// - Throws: ``CommandError/reentrantExecute(command:)`` when called on the writer thread
    ///   (from an observer or a command), where waiting would deadlock and running would nest.
    @usableFromInline
    func performQueued<T>(_ name: String, _ work: () throws -> T) throws -> T {
        try withoutActuallyEscaping(work) { work in
            let turn = lock.withLock { () -> QueuedTurn<T> in
                guard isWriting else {
                    // The writer finished meanwhile: become the writer.
                    isWriting = true
                    writer = CurrentThread.id
                    return .runNow
                }
                if CurrentThread.isSame(writer) { return .reentrant }
                // The job holds `handoff`, never `work` itself, and drops `work` before it
                // signals: the drainer may still hold the job when this call returns.
                let handoff = Handoff(work)
                let done = DispatchSemaphore(value: 0)
                pending.append {
                    handoff.run()
                    done.signal()
                }
                return .queued(handoff, done)
            }
            switch turn {
            case .runNow:
                defer { drain() }
                return try work()
            case .reentrant:
                throw CommandError.reentrantExecute(command: name)
            case .queued(let handoff, let done):
                done.wait()
                return try handoff.take()
            }
        }
    }

    /// Queues `job`; runs it (and everything queued behind it) right away when the queue is idle.
    @usableFromInline
    func submit(_ name: @autoclosure () -> String, _ job: @escaping () -> Void) {
        ReadScope.checkNotReading(name())
        let becameWriter = lock.withLock {
            pending.append(job)
            if isWriting { return false }
            isWriting = true
            writer = CurrentThread.id
            return true
        }
        if becameWriter { drain() }
    }

    /// Runs `work` as a job and returns its result without blocking a thread: at once, on
    /// this thread, when no job is running; otherwise after the jobs queued before it.
    @inlinable
    func perform<T: Sendable>(_ name: String, _ work: @escaping () -> T) async -> T {
        ReadScope.checkNotReading(name)
        if beginWriting() {
            defer { drain() }
            return work()
        }
        return await withCheckedContinuation { continuation in
            submit(name) { continuation.resume(returning: work()) }
        }
    }

    /// Runs queued jobs until the queue is empty, then gives up the writer role.
    @inlinable
    func drain() {
        while let job = lock.withLock({ () -> (() -> Void)? in
            guard !releaseWriterIfIdle() else { return nil }
            let job = pending[pendingHead]
            pendingHead += 1
            if pendingHead >= 64 && pendingHead * 2 >= pending.count {
                pending.removeFirst(pendingHead)
                pendingHead = 0
            }
            return job
        }) {
            job()
        }
    }
}

/// What ``ModelStore/performQueued(_:_:)`` found under the lock.
private enum QueuedTurn<T> {
    /// No job was running: the caller became the writer.
    case runNow
    /// The caller is the writer (an observer or a command): waiting would deadlock.
    case reentrant
    /// The job is queued; the caller waits on the semaphore, then takes the handoff's result.
    case queued(Handoff<T>, DispatchSemaphore)
}

/// Carries a blocking caller's work to the writer thread and its result back.
/// The semaphore the caller waits on orders every access.
private final class Handoff<T>: @unchecked Sendable {
    private var work: (() throws -> T)?
    private var result: Swift.Result<T, any Error>?

    init(_ work: @escaping () throws -> T) {
        self.work = work
    }

    func run() {
        guard let work else { return }
        self.work = nil
        result = Swift.Result { try work() }
    }

    func take() throws -> T {
        guard let result else { preconditionFailure("Commands: a write job finished without a result.") }
        return try result.get()
    }
}
